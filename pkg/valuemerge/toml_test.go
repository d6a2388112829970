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

// A TOML value that reads once quoted is told so, with where (issue 30);
// the value itself stays out of the message.
func TestUnquotedTOMLString(t *testing.T) {
	const hint = `(a string is quoted in TOML: write the value in quotes, key = "…")`
	for text, want := range map[string]string{
		"domain = git.example.com\n":       "at line 1, column 10: unexpected character U+0067 'g' at start of value " + hint,
		"[a]\nx = 'ok'\ny = hello world\n": "at line 3, column 5: ",
		"x = [1, 2\n":                      "",
		"x = 1.2.3\n":                      hint,
	} {
		err := Check(TOML, text, "overlay")
		switch {
		case err == nil:
			t.Errorf("%q: no error", text)
		case want == "" && strings.Contains(err.Error(), hint), !strings.Contains(err.Error(), want):
			t.Errorf("%q: %v, want %q", text, err, want)
		case strings.Contains(err.Error(), "example.com"), strings.Contains(err.Error(), "hello"):
			t.Errorf("%q: the message shows the value: %v", text, err)
		}
	}
}
