package podspec_test

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/podspec"
)

// One PodSpec patch for every workload that asks for the log shipper,
// wherever its kind keeps the PodSpec (a Deployment's spec.template.spec,
// a CronJob's spec.jobTemplate.spec.template.spec): a sidecar is added and
// every container of the workload's own gets a volume mount. The sidecar
// the patch adds is its own, and the containerPatch leaves it alone.
func ExampleFunction() {
	out, _, err := fnrun.RunBytes(podspec.Function, []byte(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
functionConfig:
  apiVersion: fn.patchwork.dev/v1alpha1
  kind: PodSpecPatch
  metadata: {name: log-shipper}
  patchesPodSpec:
  - matchAnnotations: {logging.example.com/ship: "true"}
    patch: |
      containers:
      - name: shipper
        image: fluent/fluent-bit:3.2
      volumes:
      - name: logs
        emptyDir: {}
    containerPatch: |
      volumeMounts:
      - name: logs
        mountPath: /var/log/app
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: api
    annotations: {logging.example.com/ship: "true"}
  spec:
    template:
      spec:
        containers:
        - name: api
          image: example/api:1.0
- apiVersion: batch/v1
  kind: CronJob
  metadata:
    name: report
    annotations: {logging.example.com/ship: "true"}
  spec:
    schedule: "0 3 * * *"
    jobTemplate:
      spec:
        template:
          spec:
            containers:
            - name: report
              image: example/report:1.0
`))
	if err != nil {
		panic(err)
	}
	fmt.Print(string(out))
	// Output:
	// apiVersion: config.kubernetes.io/v1
	// kind: ResourceList
	// items:
	// - apiVersion: apps/v1
	//   kind: Deployment
	//   metadata:
	//     name: api
	//     annotations: {logging.example.com/ship: "true"}
	//   spec:
	//     template:
	//       spec:
	//         containers:
	//         - name: api
	//           image: example/api:1.0
	//           volumeMounts:
	//           - name: logs
	//             mountPath: /var/log/app
	//         - name: shipper
	//           image: fluent/fluent-bit:3.2
	//         volumes:
	//         - name: logs
	//           emptyDir: {}
	// - apiVersion: batch/v1
	//   kind: CronJob
	//   metadata:
	//     name: report
	//     annotations: {logging.example.com/ship: "true"}
	//   spec:
	//     schedule: "0 3 * * *"
	//     jobTemplate:
	//       spec:
	//         template:
	//           spec:
	//             containers:
	//             - name: report
	//               image: example/report:1.0
	//               volumeMounts:
	//               - name: logs
	//                 mountPath: /var/log/app
	//             - name: shipper
	//               image: fluent/fluent-bit:3.2
	//             volumes:
	//             - name: logs
	//               emptyDir: {}
	// functionConfig:
	//   apiVersion: fn.patchwork.dev/v1alpha1
	//   kind: PodSpecPatch
	//   metadata: {name: log-shipper}
	//   patchesPodSpec:
	//   - matchAnnotations: {logging.example.com/ship: "true"}
	//     patch: |
	//       containers:
	//       - name: shipper
	//         image: fluent/fluent-bit:3.2
	//       volumes:
	//       - name: logs
	//         emptyDir: {}
	//     containerPatch: |
	//       volumeMounts:
	//       - name: logs
	//         mountPath: /var/log/app
	// results:
	// - message: 'patchesPodSpec[0]: 2 workloads changed (2 selected)'
	//   severity: info
}
