// Package e2e proves the patchwork functions with the clients users run them
// under: kpt fn eval (--exec and --image through podman), kpt fn render of the
// demo and example packages in examples/, and standalone kustomize with exec
// functions. It has only tests; see README.md for what each one shows and
// testdata/ for the cases.
package e2e
