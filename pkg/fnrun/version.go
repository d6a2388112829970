package fnrun

import "runtime/debug"

// Set at build time by `make build` and `make release`:
//
//	-ldflags "-X github.com/patchwork-krm/patchwork/pkg/fnrun.version=v0.1.0 -X ...fnrun.commit=abc123"
var (
	version = ""
	commit  = ""
)

// Version is the release this binary was built as and the commit it was
// built from. A plain `go build` or `go install` falls back to what the Go
// toolchain recorded (the module version, the VCS revision).
func Version() (ver, rev string) {
	ver, rev = version, commit
	if info, ok := debug.ReadBuildInfo(); ok {
		if ver == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			ver = info.Main.Version
		}
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && rev == "" {
				rev = s.Value
			}
		}
	}
	if ver == "" {
		ver = "dev"
	}
	if rev == "" {
		rev = "unknown"
	}
	return ver, rev
}
