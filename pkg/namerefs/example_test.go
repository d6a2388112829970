package namerefs_test

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/namerefs"
)

// A generator gave ConfigMap prod/app-config its hash suffix: the
// Deployment in the same namespace follows, in every field that names it;
// the one in another namespace refers to a different ConfigMap and keeps
// its name.
func ExampleIndex_Rename() {
	prod := yaml.MustParse(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: prod}
spec:
  template:
    spec:
      containers:
      - name: web
        image: nginx:1.27
        envFrom:
        - configMapRef: {name: app-config}
      volumes:
      - name: config
        configMap: {name: app-config}
`)
	staging := yaml.MustParse(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: staging}
spec:
  template:
    spec:
      volumes:
      - name: config
        configMap: {name: app-config}
`)
	ix := namerefs.NewIndex([]*yaml.RNode{prod, staging})
	n := ix.Rename(namerefs.Target{Kind: "ConfigMap", Namespace: "prod", Old: "app-config", New: "app-config-7gdc49gk6d"})
	fmt.Println(n, "fields changed")
	fmt.Print(prod.MustString())
	fmt.Print(staging.MustString())
	// Output:
	// 2 fields changed
	// apiVersion: apps/v1
	// kind: Deployment
	// metadata: {name: web, namespace: prod}
	// spec:
	//   template:
	//     spec:
	//       containers:
	//       - name: web
	//         image: nginx:1.27
	//         envFrom:
	//         - configMapRef: {name: app-config-7gdc49gk6d}
	//       volumes:
	//       - name: config
	//         configMap: {name: app-config-7gdc49gk6d}
	// apiVersion: apps/v1
	// kind: Deployment
	// metadata: {name: web, namespace: staging}
	// spec:
	//   template:
	//     spec:
	//       volumes:
	//       - name: config
	//         configMap: {name: app-config}
}
