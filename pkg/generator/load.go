package generator

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/internal/suggest"
	fnentry "github.com/patchwork-krm/patchwork/pkg/entry"
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/kv"
	"github.com/patchwork-krm/patchwork/pkg/valuemerge"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// load reads the generator's pairs and checks the overlay values of
// mergeValues keys parse. Its errors are all there are: every file is
// read, every literal and every overlay checked.
func (r *run) load(e entry, formats valueRules) ([]kv.Pair, framework.Results) {
	src, errs := sources(e)
	pairs, err := kv.Load(src, r.reader(e))
	errs = append(errs, fnentry.ResultsAt(e.where, err)...)
	// a key whose file or literal failed is not missing: it has its error
	return pairs, append(errs, checkOverlays(e, pairs, formats, len(errs) == 0)...)
}

// sources are the generator's inputs: its env files (kustomize's
// deprecated env last), its literals split into key and value, its files;
// and an error for each literal that does not split.
func sources(e entry) (kv.Sources, framework.Results) {
	a := e.args
	src := kv.Sources{Envs: a.Envs, Files: a.Files}
	if a.Env != "" {
		src.Envs = append(append([]string{}, a.Envs...), a.Env)
	}
	var errs framework.Results
	for i, l := range a.Literals {
		where := fmt.Sprintf("literals[%d]", i)
		p, err := l.pair(where)
		if err != nil {
			errs = append(errs, fnrun.Errorf(e.where, nil, where, "%v", err))
			continue
		}
		src.Literals = append(src.Literals, p)
	}
	return src, errs
}

// pair is the literal's key and value, the string form split on its "=".
func (l Literal) pair(source string) (kv.Pair, error) {
	key, value := l.Key, l.Value
	if l.IsRaw {
		var err error
		if key, value, err = kv.ParseLiteral(l.Raw); err != nil {
			return kv.Pair{}, err
		}
	}
	return kv.Pair{Key: key, Value: value, Source: source}, nil
}

// reader reads the generator's files; a secretGenerator's are registered
// as secret as they are read.
func (r *run) reader(e entry) kv.ReadFunc {
	read := r.req.Files().ReadFile
	if e.kind == "Secret" {
		read = secretReader(r.req)
	}
	return read
}

// checkOverlays checks that each mergeValues key is among the pairs, when
// they are complete (all loaded), and that its value (the overlay) parses
// in the key's format; a key whose mergeValues entry has its own error is
// left out.
func checkOverlays(e entry, pairs []kv.Pair, formats valueRules, complete bool) framework.Results {
	have := map[string]kv.Pair{}
	keys := make([]string, 0, len(pairs))
	for _, p := range pairs {
		have[p.Key] = p
		keys = append(keys, p.Key)
	}
	var errs framework.Results
	for i, mv := range e.args.MergeValues {
		rule, checked := formats[mv.Key]
		p, ok := have[mv.Key]
		switch {
		case !checked:
		case !ok && complete:
			errs = append(errs, fnrun.Errorf(e.mergeValuesAt(i), nil, "", "key %q is not among the generator's literals, files or envs%s", mv.Key, nearKey(mv.Key, keys)))
		case !ok:
		default:
			if err := valuemerge.Check(rule.format, p.Value, "overlay"); err != nil {
				errs = append(errs, fnrun.Errorf(e.mergeValuesAt(i), nil, "", "key %q (from %s): %v", mv.Key, p.Source, err))
			}
		}
	}
	return errs
}

// nearKey says which of the keys a mergeValues key most likely meant
// (config.tml for config.toml), or "".
func nearKey(key string, keys []string) string {
	if near := suggest.Nearest(key, keys); near != "" {
		return fmt.Sprintf(" (did you mean %s?)", near)
	}
	return ""
}
