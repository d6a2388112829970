package embedded

import (
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

const benchJSON = `{
  "service": {
    "name": "app-1",
    "endpoints": [
      {"name": "primary", "host": "old.example.com", "port": 8080},
      {"name": "secondary", "host": "old.example.com", "port": 8081}
    ]
  },
  "settings": {
    "s0": "old", "s1": "old", "s2": "old", "s3": "old", "s4": "old",
    "s5": "old", "s6": "old", "s7": "old"
  },
  "features": {"a": true, "b": false}
}
`

const benchYAML = `service:
  name: app-1
  endpoints:
    - name: primary
      host: old.example.com
      port: 8080
    - name: secondary
      host: old.example.com
      port: 8081
settings:
  s0: old
  s1: old
  s2: old
features: {a: true, b: false}
`

// BenchmarkSetJSON measures one edit of a small JSON document: parse,
// resolve, encode, and the verifying parse of the result.
func BenchmarkSetJSON(b *testing.B) {
	path := fieldpath.MustParse("service.endpoints.[name=secondary].host")
	set := setTo(str("new.example.com"))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Set(benchJSON, path, Options{}, set); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSetYAML(b *testing.B) {
	path := fieldpath.MustParse("service.endpoints.[name=secondary].host")
	set := setTo(str("new.example.com"))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Set(benchYAML, path, Options{}, set); err != nil {
			b.Fatal(err)
		}
	}
}
