package valuemerge

import (
	"strings"
	"testing"
)

const containerdBase = `# containerd config, managed by the platform team
version = 2
root = "/var/lib/containerd"   # where images live

[grpc]
  address = "/run/containerd/containerd.sock"

[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "registry.k8s.io/pause:3.9"

  [plugins."io.containerd.grpc.v1.cri".registry.mirrors."docker.io"]
    endpoint = ["https://registry-1.docker.io"]
`

func TestMergeTOML(t *testing.T) {
	cases := []struct{ name, base, overlay, want string }{{
		name: "values changed and added in place",
		base: containerdBase,
		overlay: `root = "/data/containerd"
[grpc]
max_recv_message_size = 16777216
[plugins."io.containerd.grpc.v1.cri".registry.mirrors."docker.io"]
endpoint = ["https://mirror.example.com", "https://registry-1.docker.io"]
[metrics]
address = "127.0.0.1:1338"
`,
		want: `# containerd config, managed by the platform team
version = 2
root = "/data/containerd"   # where images live

[grpc]
  address = "/run/containerd/containerd.sock"
  max_recv_message_size = 16777216

[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "registry.k8s.io/pause:3.9"

  [plugins."io.containerd.grpc.v1.cri".registry.mirrors."docker.io"]
    endpoint = ["https://mirror.example.com", "https://registry-1.docker.io"]

[metrics]
address = "127.0.0.1:1338"
`,
	}, {
		name:    "a new key of a table the base defines with dotted keys",
		base:    "a.b = 1\n\n[c]\nd = 2\n",
		overlay: "a.e = 'x'\n",
		want:    "a.b = 1\na.e = 'x'\n\n[c]\nd = 2\n",
	}, {
		name:    "a new root key goes before the first table and its comments",
		base:    "# the server\n[server]\nport = 80\n",
		overlay: "name = \"web\"\n[server]\nport = 8080\n",
		want:    "name = \"web\"\n# the server\n[server]\nport = 8080\n",
	}, {
		name:    "a value replacing a table: written whole by the library",
		base:    "# gone\n[a]\nb = 1\n",
		overlay: "a = 2\n",
		want:    "a = 2\n",
	}}
	for _, c := range cases {
		got, err := Merge(TOML, c.base, c.overlay)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got != c.want {
			t.Errorf("%s:\ngot:\n%s\nwant:\n%s", c.name, got, c.want)
		}
		if again, err := Merge(TOML, got, c.overlay); err != nil || again != got {
			t.Errorf("%s: not idempotent (%v):\n%s", c.name, err, again)
		}
	}
}

func TestMergeTOMLKeepsUntouchedBytes(t *testing.T) {
	got, err := Merge(TOML, containerdBase, "[grpc]\naddress = \"/run/other.sock\"\n")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(containerdBase, "/run/containerd/containerd.sock", "/run/other.sock", 1)
	if got != want {
		t.Fatalf("got:\n%s", got)
	}
}

func TestMergeTOMLErrors(t *testing.T) {
	_, err := Merge(TOML, "a = 1\n", "b = \n")
	if err == nil || !strings.HasPrefix(err.Error(), "overlay value is not valid TOML at line 1, column") {
		t.Errorf("got %v", err)
	}
	_, err = Merge(TOML, "a = 1\na = 2\n", "b = 1\n")
	if err == nil || !strings.HasPrefix(err.Error(), "base value is not valid TOML at line 2") {
		t.Errorf("got %v", err)
	}
}

// A header of fifty thousand dotted parts decodes in milliseconds and took
// minutes and gigabytes to merge (issue 28, item 11): a value nested
// deeper than budget.MaxDepth is refused when it is read.
func TestTOMLNestedTooDeep(t *testing.T) {
	deep := func(n int) string { return strings.TrimSuffix(strings.Repeat("a.", n), ".") }
	for _, c := range []struct{ base, overlay, err string }{
		{"[b]\ny = 2\n", "[" + deep(50000) + "]\nx = 1\n", "the overlay value nests tables more than 200 deep"},
		{"[" + deep(201) + "]\nx = 1\n", "y = 2\n", "the base value nests tables more than 200 deep"},
		{"x = 1\n", "b = [[[[1]]]]\n" + "[" + deep(200) + "]\nx = 1\n", ""},
	} {
		_, err := Merge(TOML, c.base, c.overlay)
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("got %v, want %q", err, c.err)
		}
	}
}
