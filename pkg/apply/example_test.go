package apply_test

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/apply"
)

// A DNS port on TCP beside the one on UDP: server-side apply keys a
// container's ports by containerPort and protocol, and tolerations are
// atomic, replaced whole.
func ExamplePatch_Merge() {
	dst := yaml.MustParse(`apiVersion: apps/v1
kind: Deployment
metadata: {name: dns}
spec:
  template:
    spec:
      tolerations:
      - {key: a, operator: Exists}
      containers:
      - name: dns # serves on UDP
        ports:
        - {containerPort: 53, protocol: UDP}
`)
	p, err := apply.ParsePatch(yaml.MustParse(`spec:
  template:
    spec:
      tolerations:
      - {key: b, operator: Exists}
      containers:
      - name: dns
        ports:
        - {containerPort: 53, protocol: TCP}
`))
	if err != nil {
		panic(err)
	}
	t, err := apply.Builtin().For("apps/v1", "Deployment")
	if err != nil {
		panic(err)
	}
	if err := p.Merge(dst, t, nil); err != nil {
		panic(err)
	}
	fmt.Print(dst.MustString())
	// Output:
	// apiVersion: apps/v1
	// kind: Deployment
	// metadata: {name: dns}
	// spec:
	//   template:
	//     spec:
	//       tolerations:
	//       - {key: b, operator: Exists}
	//       containers:
	//       - name: dns # serves on UDP
	//         ports:
	//         - {containerPort: 53, protocol: UDP}
	//         - containerPort: 53
	//           protocol: TCP
}
