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

// TestMergeTOML: merges written as edits of the base, with the comments
// around them kept: tables, arrays of tables and inline tables in place,
// new keys where their table's keys are and indented as they are.
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
		name:    "a value replacing a table: the table goes with its comment, the key comes",
		base:    "# gone\n[a]\nb = 1\n",
		overlay: "a = 2\n",
		want:    "a = 2\n",
	}, {
		// Issue 29: an overlay touching [[graphite]] dropped every comment
		// of InfluxDB's sample config and sorted its tables; new keys went
		// unindented right under a header, a new root key under the first
		// table's banner.
		name:    "InfluxDB: a root key after the opening comments, keys in comment-only sections indented as they are, an array of tables' element edited",
		base:    influxBase,
		overlay: "reporting-disabled = true\n[monitor]\nstore-enabled = false\n[[graphite]]\nenabled = true\ndatabase = \"graphite\"\n",
		want: strings.NewReplacer(
			"# reporting-disabled = false\n", "# reporting-disabled = false\nreporting-disabled = true\n",
			"  # store-enabled = true\n", "  # store-enabled = true\n  store-enabled = false\n",
			"  # database = \"graphite\"\n", "  # database = \"graphite\"\n  enabled = true\n  database = \"graphite\"\n",
		).Replace(influxBase),
	}, {
		name:    "InfluxDB: a second element of an array of tables follows the first",
		base:    influxBase,
		overlay: "[[graphite]]\n[[graphite]]\nenabled = true\nbind-address = \":2004\"\n",
		want: strings.Replace(influxBase, "  # database = \"graphite\"\n",
			"  # database = \"graphite\"\n\n[[graphite]]\n  enabled = true\n  bind-address = \":2004\"\n", 1),
	}, {
		name:    "an element the overlay drops goes with its comments; one it keeps loses the keys the overlay's lacks",
		base:    "# listeners\n[[servers]]\n  # the first\n  name = \"a\"\n  # its port\n  port = 1\n\n# the second\n[[servers]]\n  name = \"b\"\n\n[other]\n  x = 1\n",
		overlay: "[[servers]]\nname = \"a\"\n",
		want:    "# listeners\n[[servers]]\n  # the first\n  name = \"a\"\n\n[other]\n  x = 1\n",
	}, {
		name:    "an array of tables replacing a value, and a value replacing an array of tables",
		base:    "a = 1\nb = 2\n\n[[c]]\n  x = 1\n",
		overlay: "c = [1, 2]\n[[a]]\ny = 2\n",
		want:    "b = 2\nc = [1, 2]\n\n[[a]]\n  y = 2\n",
	}, {
		name:    "inline tables edited inside: a key set, a key added, a table added as dotted keys",
		base:    "[runc]\n  options = { SystemdCgroup = false, BinaryName = \"runc\" }  # c\n  a = {b = {}}\n",
		overlay: "[runc.options]\nSystemdCgroup = true\nRoot = \"/run\"\n[runc.a.b.c]\nd = 1\n",
		want:    "[runc]\n  options = { SystemdCgroup = true, BinaryName = \"runc\", Root = \"/run\" }  # c\n  a = {b = { c.d = 1}}\n",
	}, {
		name:    "a table of an array's last element after other tables: a new element follows it",
		base:    "[[s]]\nn = 1\n[t]\nx = 1\n[s.sub]\ny = 1\n",
		overlay: "[[s]]\nn = 1\n[s.sub]\ny = 1\n[[s]]\nn = 2\n",
		want:    "[[s]]\nn = 1\n[t]\nx = 1\n[s.sub]\ny = 1\n\n[[s]]\nn = 2\n",
	}, {
		name:    "a new root key where the root has keys: after them",
		base:    "# head\n\nport = 1\n\n# banner\n\n[t]\nk = 1\n",
		overlay: "host = \"h\"\n",
		want:    "# head\n\nport = 1\nhost = \"h\"\n\n# banner\n\n[t]\nk = 1\n",
	}}
	for _, c := range cases {
		m, err := MergeText(TOML, c.base, c.overlay)
		if err != nil || m.Lost != "" {
			t.Errorf("%s: %v %s", c.name, err, m.Why)
			continue
		}
		got := m.Text
		if got != c.want {
			t.Errorf("%s:\ngot:\n%s\nwant:\n%s", c.name, got, c.want)
		}
		if again, err := Merge(TOML, got, c.overlay); err != nil || again != got {
			t.Errorf("%s: not idempotent (%v):\n%s", c.name, err, again)
		}
	}
}

// influxBase is laid out as InfluxDB's sample config is: a root of
// comments only, a banner above each table, keys indented under headers,
// settings commented out, an array of tables.
const influxBase = `### Welcome to the InfluxDB configuration file.

# Once every 24 hours InfluxDB will report usage data.
# reporting-disabled = false

###
### [meta]
###

[meta]
  # Where the metadata/raft database is stored
  dir = "/var/lib/influxdb/meta"

###
### [monitor]
###

[monitor]
  # Whether to record statistics internally.
  # store-enabled = true

###
### [[graphite]]
###

[[graphite]]
  # Determines whether the graphite endpoint is enabled.
  # enabled = false
  # database = "graphite"

###
### [[udp]]
###

[[udp]]
  # enabled = false
`

// TestMergeTOMLWrittenWhole: what cannot be written as edits (a value
// inside an inline table becoming a table) is written whole by the
// library, and the result says what that loses and why.
func TestMergeTOMLWrittenWhole(t *testing.T) {
	m, err := MergeText(TOML, "# the mirror\nmirror = {host = \"h\", ca = \"c.pem\"}\n", "[mirror.ca]\nfile = \"c.pem\"\n")
	if err != nil {
		t.Fatal(err)
	}
	if m.Text != "[mirror]\nhost = 'h'\n\n[mirror.ca]\nfile = 'c.pem'\n" {
		t.Errorf("got:\n%s", m.Text)
	}
	lost, why := "the merged TOML is written whole by the TOML library: the base's comments and layout are lost and its keys sorted", "the value at mirror.ca, inside an inline table, cannot be deleted in place"
	if m.Lost != lost || m.Why != why {
		t.Errorf("Lost, Why = %q, %q; want %q, %q", m.Lost, m.Why, lost, why)
	}
	// The edits are read again: ones that would not mean the merge are
	// not written (the merge given here is not theirs).
	b, o := map[string]any{"a": int64(1)}, map[string]any{"a": int64(2)}
	m, err = writeTOML("a = 1\n", "a = 2\n", b, o, map[string]any{"a": int64(3)})
	if err != nil || m.Text != "a = 3\n" || m.Why != "the edits would not read as the merge (please report this)" {
		t.Errorf("got %q, %q, %v", m.Text, m.Why, err)
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
