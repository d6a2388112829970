package smp

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/schema"
)

// Cases with the real built-in schema of pkg/schema (the rest of the tests
// build their types by hand).

func builtin(apiVersion, kind string) *schema.Type {
	return schema.Builtin().Lookup(apiVersion, kind)
}

func TestBuiltinKinds(t *testing.T) {
	deployment := builtin("apps/v1", "Deployment")
	service := builtin("v1", "Service")
	if deployment == nil || service == nil {
		t.Fatal("the built-in schema lacks Deployment or Service")
	}
	runCases(t, []mergeCase{{
		name: "Deployment: env, ports and a sidecar merge by their keys",
		t:    deployment,
		dst:  benchDeployment,
		patch: `
			spec:
			  template:
			    spec:
			      containers:
			      - name: proxy
			        ports:
			        - containerPort: 15001
			          hostPort: 15001
			      - name: api
			        env:
			        - name: LOG_LEVEL
			          value: debug`,
		want: replaceAll(benchDeployment,
			"        - name: LOG_LEVEL\n          value: info\n", "        - name: LOG_LEVEL\n          value: debug\n",
			"        - name: proxy\n          containerPort: 15001\n", "        - name: proxy\n          containerPort: 15001\n          hostPort: 15001\n"),
	}, {
		name: "Deployment: a topology spread constraint without whenUnsatisfiable is an error",
		t:    deployment,
		dst:  "spec: {template: {spec: {}}}",
		patch: `
			spec:
			  template:
			    spec:
			      topologySpreadConstraints:
			      - topologyKey: topology.kubernetes.io/zone
			        maxSkew: 1`,
		err: `spec.template.spec.topologySpreadConstraints: element 0 (topologyKey=topology.kubernetes.io/zone) lacks "whenUnsatisfiable"`,
	}, {
		name:  "Deployment: tolerations are atomic and replaced",
		t:     deployment,
		dst:   "spec: {template: {spec: {tolerations: [{key: a, operator: Exists}]}}}",
		patch: "spec: {template: {spec: {tolerations: [{key: b, operator: Exists}]}}}",
		want:  "spec: {template: {spec: {tolerations: [{key: b, operator: Exists}]}}}",
	}, {
		name:  "Service: a port without protocol patches the TCP one",
		t:     service,
		dst:   dnsServicePorts,
		patch: "spec: {ports: [{port: 53, targetPort: 5353}]}",
		want: `
			spec:
			  ports:
			  - port: 53
			    protocol: UDP
			    name: dns
			  - port: 53
			    protocol: TCP
			    name: dns-tcp
			    targetPort: 5353`,
	}, {
		name:  "metadata.finalizers merge as a set",
		t:     deployment,
		dst:   "metadata: {finalizers: [a, b]}",
		patch: "metadata: {finalizers: [c, a]}",
		want:  "metadata: {finalizers: [a, b, c]}",
	}})
}

// replaceAll applies old/new pairs to s; each old text must be there.
func replaceAll(s string, oldNew ...string) string {
	for i := 0; i+1 < len(oldNew); i += 2 {
		if !strings.Contains(s, oldNew[i]) {
			panic("replaceAll: " + oldNew[i] + " not found")
		}
		s = strings.Replace(s, oldNew[i], oldNew[i+1], 1)
	}
	return s
}

func BenchmarkMergeSMPBuiltin(b *testing.B) {
	t := builtin("apps/v1", "Deployment")
	benchMerge(b, func(dst, patch *yaml.RNode) error { return Merge(dst, patch, t) })
}
