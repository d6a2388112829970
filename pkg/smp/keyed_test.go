package smp

import (
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/schema"
)

const dnsPorts = `
	spec:
	  template:
	    spec:
	      containers:
	      - name: dns
	        ports:
	        - containerPort: 53
	          protocol: UDP
	          name: dns
	        - containerPort: 53
	          protocol: TCP
	          name: dns-tcp`

const dnsServicePorts = `
	spec:
	  ports:
	  - port: 53
	    protocol: UDP
	    name: dns
	  - port: 53
	    protocol: TCP
	    name: dns-tcp`

func TestContainerPorts(t *testing.T) {
	runCases(t, []mergeCase{{
		name: "both keys given: the UDP port is patched",
		t:    deploymentT,
		dst:  dnsPorts,
		patch: `
			spec:
			  template:
			    spec:
			      containers:
			      - name: dns
			        ports:
			        - containerPort: 53
			          protocol: UDP
			          hostPort: 5353`,
		want: `
			spec:
			  template:
			    spec:
			      containers:
			      - name: dns
			        ports:
			        - containerPort: 53
			          protocol: UDP
			          name: dns
			          hostPort: 5353
			        - containerPort: 53
			          protocol: TCP
			          name: dns-tcp`,
	}, {
		name: "protocol omitted: it defaults to TCP, so the TCP port is patched",
		t:    deploymentT,
		dst:  dnsPorts,
		patch: `
			spec:
			  template:
			    spec:
			      containers:
			      - name: dns
			        ports:
			        - containerPort: 53
			          hostPort: 5353`,
		want: `
			spec:
			  template:
			    spec:
			      containers:
			      - name: dns
			        ports:
			        - containerPort: 53
			          protocol: UDP
			          name: dns
			        - containerPort: 53
			          protocol: TCP
			          name: dns-tcp
			          hostPort: 5353`,
	}, {
		name: "protocol omitted in the document too: both sides default to TCP",
		t:    deploymentT,
		dst: `
			spec:
			  template:
			    spec:
			      containers:
			      - name: web
			        ports:
			        - containerPort: 80`,
		patch: `
			spec:
			  template:
			    spec:
			      containers:
			      - name: web
			        ports:
			        - containerPort: 80
			          protocol: TCP
			          name: http`,
		want: `
			spec:
			  template:
			    spec:
			      containers:
			      - name: web
			        ports:
			        - containerPort: 80
			          protocol: TCP
			          name: http`,
	}, {
		name: "$patch: delete with protocol omitted deletes the TCP port only",
		t:    deploymentT,
		dst:  dnsPorts,
		patch: `
			spec:
			  template:
			    spec:
			      containers:
			      - name: dns
			        ports:
			        - containerPort: 53
			          $patch: delete`,
		want: `
			spec:
			  template:
			    spec:
			      containers:
			      - name: dns
			        ports:
			        - containerPort: 53
			          protocol: UDP
			          name: dns`,
	}, {
		name: "a new port is appended, without a protocol as written",
		t:    deploymentT,
		dst:  dnsPorts,
		patch: `
			spec:
			  template:
			    spec:
			      containers:
			      - name: dns
			        ports:
			        - containerPort: 9153
			          name: metrics`,
		want: `
			spec:
			  template:
			    spec:
			      containers:
			      - name: dns
			        ports:
			        - containerPort: 53
			          protocol: UDP
			          name: dns
			        - containerPort: 53
			          protocol: TCP
			          name: dns-tcp
			        - containerPort: 9153
			          name: metrics`,
	}, {
		name: "errors name the path through keyed elements",
		t:    deploymentT,
		dst:  dnsPorts,
		patch: `
			spec:
			  template:
			    spec:
			      containers:
			      - name: dns
			        ports:
			        - containerPort: 53
			          $patch: remove`,
		err: `spec.template.spec.containers[name=dns].ports[containerPort=53,protocol=TCP]: unknown $patch directive "remove"`,
	}})
}

func TestServicePorts(t *testing.T) {
	runCases(t, []mergeCase{{
		name: "both keys given",
		t:    serviceT,
		dst:  dnsServicePorts,
		patch: `
			spec:
			  ports:
			  - port: 53
			    protocol: UDP
			    targetPort: 5353`,
		want: `
			spec:
			  ports:
			  - port: 53
			    protocol: UDP
			    name: dns
			    targetPort: 5353
			  - port: 53
			    protocol: TCP
			    name: dns-tcp`,
	}, {
		name: "protocol omitted patches TCP",
		t:    serviceT,
		dst:  dnsServicePorts,
		patch: `
			spec:
			  ports:
			  - port: 53
			    targetPort: 5353`,
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
		name: "$patch: delete with protocol omitted deletes TCP",
		t:    serviceT,
		dst:  dnsServicePorts,
		patch: `
			spec:
			  ports:
			  - port: 53
			    $patch: delete`,
		want: `
			spec:
			  ports:
			  - port: 53
			    protocol: UDP
			    name: dns`,
	}})
}

func TestKeyedLists(t *testing.T) {
	runCases(t, []mergeCase{{
		name: "a key missing without a default is an error naming list and field",
		t:    deploymentT,
		dst: `
			spec:
			  template:
			    spec:
			      topologySpreadConstraints:
			      - topologyKey: zone
			        whenUnsatisfiable: DoNotSchedule
			        maxSkew: 1`,
		patch: `
			spec:
			  template:
			    spec:
			      topologySpreadConstraints:
			      - topologyKey: zone
			        maxSkew: 2`,
		err: `spec.template.spec.topologySpreadConstraints: element 0 (topologyKey=zone) lacks "whenUnsatisfiable": ` +
			`the list merges by [topologyKey, whenUnsatisfiable] and "whenUnsatisfiable" has no default, so the element cannot be matched; add "whenUnsatisfiable" to it`,
	}, {
		name:  "the error does not depend on the document: also when the list is absent",
		t:     deploymentT,
		dst:   "spec: {}",
		patch: "spec: {template: {spec: {topologySpreadConstraints: [{topologyKey: zone}]}}}",
		err:   `spec.template.spec.topologySpreadConstraints: element 0 (topologyKey=zone) lacks "whenUnsatisfiable"`,
	}, {
		name: "elements merge by key, new ones are appended, order and comments stay",
		t:    namedT,
		dst: `
			list:
			# b first
			- name: b
			  value: 1 # one
			- name: a
			  value: 2`,
		patch: `
			list:
			- name: c
			  value: 3
			- name: a
			  value: 20
			- name: b
			  extra: x`,
		want: `
			list:
			# b first
			- name: b
			  value: 1 # one
			  extra: x
			- name: a
			  value: 20
			- name: c
			  value: 3`,
	}, {
		name:  "deleting an element that does not exist is a no-op",
		t:     namedT,
		dst:   "list: [{name: a}]",
		patch: "list: [{name: z, $patch: delete}]",
		want:  "list: [{name: a}]",
	}, {
		name:  "$patch: replace on an element replaces that element only",
		t:     namedT,
		dst:   "list: [{name: a, x: 1, y: 2}, {name: b}]",
		patch: "list: [{name: a, $patch: replace, z: 3}]",
		want:  "list: [{name: a, z: 3}, {name: b}]",
	}, {
		name:  "{$patch: replace} replaces the whole list with the other elements",
		t:     namedT,
		dst:   "list: [{name: a, x: 1}, {name: b}]",
		patch: "list: [{$patch: replace}, {name: c}, {name: a, y: 2}]",
		want:  `list: [{name: c}, {name: a, "y": 2}]`,
	}, {
		name:  "{$patch: delete} removes the list",
		t:     namedT,
		dst:   "list: [{name: a}]\nb: 1",
		patch: "list: [{$patch: delete}]",
		want:  "b: 1",
	}, {
		name:  "[] merges nothing",
		t:     namedT,
		dst:   "list: [{name: a}]",
		patch: "list: []",
		want:  "list: [{name: a}]",
	}, {
		name:  "null deletes the list",
		t:     namedT,
		dst:   "list: [{name: a}]\nb: 1",
		patch: "list: null",
		want:  "b: 1",
	}, {
		name:  "with duplicate keys in the document the first element merges",
		t:     namedT,
		dst:   "list: [{name: a, v: 1}, {name: a, v: 2}]",
		patch: "list: [{name: a, v: 3}]",
		want:  "list: [{name: a, v: 3}, {name: a, v: 2}]",
	}, {
		name:  "$patch: delete removes all duplicates",
		t:     namedT,
		dst:   "list: [{name: a, v: 1}, {name: b}, {name: a, v: 2}]",
		patch: "list: [{name: a, $patch: delete}]",
		want:  "list: [{name: b}]",
	}, {
		name:  "two patch elements with the same keys both merge",
		t:     namedT,
		dst:   "list: []",
		patch: "list: [{name: a, x: 1}, {name: a, y: 2}]",
		want:  `list: [{name: a, x: 1, "y": 2}]`,
	}, {
		name:  "keys compare as text",
		t:     object(map[string]*schema.Type{"list": keyedList(nil, "port")}),
		dst:   "list: [{port: 80, a: 1}]",
		patch: `list: [{port: "80", b: 2}]`,
		want:  `list: [{port: "80", a: 1, b: 2}]`,
	}, {
		name:  "document elements that are not maps or lack keys never match",
		t:     namedT,
		dst:   "list: [x, {value: 1}]",
		patch: "list: [{name: a}]",
		want:  "list: [x, {value: 1}, {name: a}]",
	}, {
		name:  "a patch element that is not a map is an error",
		t:     namedT,
		dst:   "list: []",
		patch: "list: [a]",
		err:   "list: element 0 is a string, but this list holds maps merged by [name]",
	}, {
		name:  "a key that is not a value is an error",
		t:     namedT,
		dst:   "list: []",
		patch: "list: [{name: {a: 1}}]",
		err:   `list: element 0: merge key "name" must be a value, found a map`,
	}, {
		name:  "a null key counts as missing",
		t:     namedT,
		dst:   "list: []",
		patch: "list: [{name: null}]",
		err:   `list: element 0 lacks "name"`,
	}, {
		name: "nested keyed lists merge through keyed elements",
		t:    deploymentT,
		dst: `
			spec:
			  template:
			    spec:
			      containers:
			      - name: app
			        env:
			        - name: A
			          value: "1"`,
		patch: `
			spec:
			  template:
			    spec:
			      containers:
			      - name: app
			        env:
			        - name: B
			          valueFrom:
			            fieldRef: {fieldPath: metadata.name}
			        - name: A
			          value: "2"`,
		want: `
			spec:
			  template:
			    spec:
			      containers:
			      - name: app
			        env:
			        - name: A
			          value: "2"
			        - name: B
			          valueFrom:
			            fieldRef: {fieldPath: metadata.name}`,
	}})
}
