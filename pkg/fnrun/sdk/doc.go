// Package sdk offers patchwork's functions to Go programs built on the kpt
// SDK (github.com/kptdev/krm-functions-sdk/go/fn). It is a package of its
// own so that the function binaries, which never take this path, do not
// link the SDK.
//
// Processor turns a fnrun.Function (multipatch.Function, say) into a
// fn.ResourceListProcessor with the same transform, results and
// all-or-nothing rule as the binary's.
package sdk
