package smp

import "testing"

var fill = Options{Default: true}

func TestDefaultFillsOnlyWhatIsMissing(t *testing.T) {
	runCases(t, []mergeCase{{
		name: "a set scalar stays, a missing one is filled",
		t:    deploymentT,
		opts: fill, filled: 1,
		dst: `
			spec:
			  replicas: 5 # the team's
			  template:
			    spec:
			      containers:
			      - name: app
			        imagePullPolicy: Always`,
		patch: `
			spec:
			  replicas: 1
			  revisionHistoryLimit: 3
			  template:
			    spec:
			      containers:
			      - name: app
			        imagePullPolicy: IfNotPresent`,
		want: `
			spec:
			  replicas: 5 # the team's
			  template:
			    spec:
			      containers:
			      - name: app
			        imagePullPolicy: Always
			  revisionHistoryLimit: 3`,
	}, {
		name: "keyed elements merge by their keys and none is added",
		t:    deploymentT,
		opts: fill, filled: 2,
		dst: `
			spec:
			  template:
			    spec:
			      containers:
			      - name: app
			        resources:
			          limits: {cpu: "2"}
			      - name: sidecar
			        resources:
			          limits: {memory: 64Mi}`,
		patch: `
			spec:
			  template:
			    spec:
			      containers:
			      - name: app
			        resources:
			          limits: {memory: 512Mi}
			      - name: sidecar
			        resources:
			          limits: {memory: 512Mi}
			          requests: {memory: 32Mi}
			      - name: absent
			        image: never-added`,
		want: `
			spec:
			  template:
			    spec:
			      containers:
			      - name: app
			        resources:
			          limits: {cpu: "2", memory: 512Mi}
			      - name: sidecar
			        resources:
			          limits: {memory: 64Mi}
			          requests: {memory: 32Mi}`,
	}, {
		name: "a null counts as missing; a value of another kind is a value",
		t:    nil,
		opts: fill, filled: 1,
		dst: `
			a: null
			b: legacy
			c: [1]`,
		patch: `
			a: {x: 1}
			b: {x: 1}
			c: {x: 1}`,
		want: `
			a: {x: 1}
			b: legacy
			c: [1]`,
	}, {
		name: "lists are written whole where there is none, and counted once",
		t:    podSpecT,
		opts: fill, filled: 1,
		dst: `
			containers:
			- name: app
			  args: [--serve]`,
		patch: `
			tolerations:
			- {key: spot, operator: Exists}
			- {key: arm, operator: Exists}
			containers:
			- name: app
			  args: [--debug]`,
		want: `
			containers:
			- name: app
			  args: [--serve]
			tolerations:
			- {key: spot, operator: Exists}
			- {key: arm, operator: Exists}`,
	}, {
		name: "a keyed list the document lacks is not created, nor the maps around it",
		t:    deploymentT,
		opts: fill, filled: 0,
		dst: `
			metadata:
			  name: api`,
		patch: `
			spec:
			  template:
			    spec:
			      containers:
			      - name: app
			        imagePullPolicy: Always`,
		want: `
			metadata:
			  name: api`,
	}, {
		name: "a missing map is created with what the patch fills in it",
		t:    deploymentT,
		opts: fill, filled: 2,
		dst: `
			spec:
			  template:
			    spec:
			      containers:
			      - name: app`,
		patch: `
			spec:
			  template:
			    spec:
			      securityContext:
			        runAsNonRoot: true
			        seccompProfile: {type: RuntimeDefault}`,
		want: `
			spec:
			  template:
			    spec:
			      containers:
			      - name: app
			      securityContext:
			        runAsNonRoot: true
			        seccompProfile: {type: RuntimeDefault}`,
	}})
}

func TestDefaultRefusesWhatRemoves(t *testing.T) {
	dst := `
		spec:
		  template:
		    spec:
		      containers:
		      - name: app`
	for _, c := range []struct{ name, patch, err string }{
		{"null", "spec: {paused: null}", "null (which deletes the field) cannot be part of a default"},
		{"element delete", `
			spec:
			  template:
			    spec:
			      containers:
			      - {name: app, $patch: delete}`, "$patch: delete cannot be part of a default"},
		{"element delete of an absent element", `
			spec:
			  template:
			    spec:
			      containers:
			      - {name: gone, $patch: delete}`, "$patch: delete cannot be part of a default"},
		{"map replace", "spec: {template: {$patch: replace, spec: {}}}", "$patch: replace cannot be part of a default"},
		{"list replace", `
			spec:
			  template:
			    spec:
			      containers:
			      - $patch: replace
			      - name: app`, "$patch: replace cannot be part of a default"},
		{"retainKeys", "spec: {$retainKeys: [replicas], replicas: 1}", "$retainKeys cannot be part of a default"},
		{"order", "spec: {template: {spec: {$setElementOrder/containers: [{name: app}]}}}", "$setElementOrder/containers cannot"},
		{"delete from list", "spec: {template: {spec: {containers: [{name: app, $deleteFromPrimitiveList/args: [x]}]}}}", "$deleteFromPrimitiveList/args cannot"},
		{"missing key, in an element that is not there", `
			spec:
			  template:
			    spec:
			      containers:
			      - image: x`, `lacks "name"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkMerge(t, mergeCase{t: deploymentT, opts: fill, dst: dst, patch: c.patch, err: c.err})
		})
	}
	if err := ValidateWith(parse(t, "$patch: delete"), nil, fill); err == nil {
		t.Error("a default deleting its resource was accepted")
	}
}

func TestDefaultErrorsDoNotDependOnTheDocument(t *testing.T) {
	// The keyed list is absent in one document and present in the other:
	// the element's missing key is an error in both.
	patch := `
		spec:
		  template:
		    spec:
		      containers:
		      - imagePullPolicy: Always`
	for _, dst := range []string{"spec: {}", "spec: {template: {spec: {containers: [{name: app}]}}}"} {
		_, err := MergeWith(parse(t, dst), parse(t, dedent(patch)), deploymentT, fill)
		if err == nil {
			t.Errorf("%s: no error", dst)
		}
	}
}
