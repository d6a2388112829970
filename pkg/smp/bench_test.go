package smp

import (
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/kustomize/kyaml/yaml/merge2"
)

// The benchmark pair merges the same patch into the same Deployment with this
// package and with kyaml's merge2 (what kustomize 5.8.2 uses), each on fresh
// copies (merge2 consumes its patch) made outside the timer.

const benchDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  namespace: prod
  labels:
    app.kubernetes.io/name: api
    app.kubernetes.io/part-of: shop
  annotations:
    deployment.kubernetes.io/revision: "3"
spec:
  replicas: 3
  selector:
    matchLabels:
      app.kubernetes.io/name: api
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 0
  template:
    metadata:
      labels:
        app.kubernetes.io/name: api
    spec:
      serviceAccountName: api
      containers:
      - name: api
        image: registry.example.com/shop/api:1.4.2 # pinned
        args: ["--port=8080", "--metrics-port=9090"]
        env:
        - name: LOG_LEVEL
          value: info
        - name: DB_HOST
          value: db.prod.svc
        - name: DB_USER
          valueFrom:
            secretKeyRef: {name: db, key: user}
        - name: DB_PASSWORD
          valueFrom:
            secretKeyRef: {name: db, key: password}
        - name: POD_NAME
          valueFrom:
            fieldRef: {fieldPath: metadata.name}
        ports:
        - name: http
          containerPort: 8080
          protocol: TCP
        - name: metrics
          containerPort: 9090
        resources:
          requests: {cpu: 100m, memory: 128Mi}
          limits: {memory: 256Mi}
        readinessProbe:
          httpGet: {path: /ready, port: http}
          periodSeconds: 5
        livenessProbe:
          httpGet: {path: /live, port: http}
        volumeMounts:
        - name: config
          mountPath: /etc/api
        - name: tmp
          mountPath: /tmp
      - name: proxy
        image: envoyproxy/envoy:v1.30.1
        ports:
        - name: proxy
          containerPort: 15001
        volumeMounts:
        - name: envoy
          mountPath: /etc/envoy
      volumes:
      - name: config
        configMap: {name: api-config}
      - name: envoy
        configMap: {name: envoy}
      - name: tmp
        emptyDir: {}
`

const benchPatch = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  labels:
    team: checkout
spec:
  template:
    spec:
      containers:
      - name: api
        env:
        - name: LOG_LEVEL
          value: debug
        - name: FEATURE_FLAGS
          value: new-cart
        ports:
        - name: grpc
          containerPort: 50051
        resources:
          limits: {memory: 512Mi}
      - name: log-shipper
        image: fluent/fluent-bit:3.0
        volumeMounts:
        - name: logs
          mountPath: /var/log/api
      volumes:
      - name: logs
        emptyDir: {}
`

func benchInputs(b *testing.B) (dst, patch *yaml.RNode) {
	var err error
	if dst, err = yaml.Parse(benchDeployment); err != nil {
		b.Fatal(err)
	}
	if patch, err = yaml.Parse(benchPatch); err != nil {
		b.Fatal(err)
	}
	return dst, patch
}

// benchMerge times merge on fresh copies of the document and the patch,
// made in batches outside the timer, so only the engine is measured.
func benchMerge(b *testing.B, merge func(dst, patch *yaml.RNode) error) {
	dst, patch := benchInputs(b)
	if err := merge(dst.Copy(), patch.Copy()); err != nil { // warm-up
		b.Fatal(err)
	}
	const batch = 256
	dsts, patches := make([]*yaml.RNode, batch), make([]*yaml.RNode, batch)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i % batch
		if j == 0 {
			b.StopTimer()
			for k := range dsts {
				dsts[k], patches[k] = dst.Copy(), patch.Copy()
			}
			b.StartTimer()
		}
		if err := merge(dsts[j], patches[j]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMergeSMP(b *testing.B) {
	benchMerge(b, func(dst, patch *yaml.RNode) error { return Merge(dst, patch, deploymentT) })
}

func BenchmarkMergeKyamlMerge2(b *testing.B) {
	// The warm-up merge also loads kyaml's built-in OpenAPI schema.
	opts := yaml.MergeOptions{ListIncreaseDirection: yaml.MergeOptionsListAppend}
	benchMerge(b, func(dst, patch *yaml.RNode) error {
		_, err := merge2.Merge(patch, dst, opts)
		return err
	})
}

// The two engines agree on the benchmark's documents, so the benchmark
// compares like with like.
func TestBenchmarkEnginesAgree(t *testing.T) {
	dst, patch := parse(t, benchDeployment), parse(t, benchPatch)
	ours := dst.Copy()
	if err := Merge(ours, patch, deploymentT); err != nil {
		t.Fatal(err)
	}
	theirs, err := merge2.Merge(patch.Copy(), dst.Copy(), yaml.MergeOptions{ListIncreaseDirection: yaml.MergeOptionsListAppend})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := str(t, ours), str(t, theirs); a != b {
		t.Errorf("engines disagree\nsmp:\n%s\nmerge2:\n%s", a, b)
	}
}
