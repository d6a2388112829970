package kv_test

import (
	"fmt"
	"testing/fstest"

	"github.com/patchwork-krm/patchwork/pkg/kv"
)

// An env file as kustomize reads it: comments and blank lines skipped,
// leading space trimmed, the line split on its first "=".
func ExampleParseEnv() {
	env := []byte("# database\nDB_HOST=db.prod.svc\n  DB_OPTS=sslmode=require\n\nDEBUG\n")
	pairs, err := kv.ParseEnv(env, "envs[0]")
	if err != nil {
		panic(err)
	}
	for _, p := range pairs {
		fmt.Printf("%s=%q (%s)\n", p.Key, p.Value, p.Source)
	}
	// Output:
	// DB_HOST="db.prod.svc" (envs[0] line 2)
	// DB_OPTS="sslmode=require" (envs[0] line 3)
	// DEBUG="" (envs[0] line 5)
}

// A generator's sources load in kustomize's order (envs, literals, files);
// a key given twice is an error that says where both came from (and, from
// an env file, does not quote the key).
func ExampleLoad() {
	files := fstest.MapFS{
		"app.env":     {Data: []byte("LOG_LEVEL=info\n")},
		"nginx.conf":  {Data: []byte("worker_processes 2;\n")},
		"release.env": {Data: []byte("LOG_LEVEL=debug\n")},
	}
	key, value, err := kv.ParseLiteral(`GREETING="hello world"`)
	if err != nil {
		panic(err)
	}
	src := kv.Sources{
		Envs:     []string{"app.env"},
		Literals: []kv.Pair{{Key: key, Value: value, Source: "literals[0]"}},
		Files:    []string{"nginx.conf"},
	}
	pairs, err := kv.Load(src, files.ReadFile)
	if err != nil {
		panic(err)
	}
	for _, p := range pairs {
		fmt.Printf("%s=%q\n", p.Key, p.Value)
	}

	src.Envs = append(src.Envs, "release.env")
	_, err = kv.Load(src, files.ReadFile)
	fmt.Println(err)
	// Output:
	// LOG_LEVEL="info"
	// GREETING="hello world"
	// nginx.conf="worker_processes 2;\n"
	// envs[1] (release.env) line 1: the key is already given by envs[0] (app.env) line 1
}
