package generator

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/kv"
	"github.com/patchwork-krm/patchwork/pkg/valuemerge"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// load reads the generator's pairs and checks the overlay values of
// mergeValues keys parse.
func (r *run) load(e entry, formats valueRules) ([]kv.Pair, *framework.Result) {
	src, res := sources(e)
	if res != nil {
		return nil, res
	}
	pairs, err := kv.Load(src, r.reader(e))
	if err != nil {
		return nil, fnrun.Errorf(e.where, nil, "", "%v", err)
	}
	if res := checkOverlays(e, pairs, formats); res != nil {
		return nil, res
	}
	return pairs, nil
}

// sources are the generator's inputs: its env files (kustomize's
// deprecated env last), its literals split into key and value, its files.
func sources(e entry) (kv.Sources, *framework.Result) {
	a := e.args
	src := kv.Sources{Envs: a.Envs, Files: a.Files}
	if a.Env != "" {
		src.Envs = append(append([]string{}, a.Envs...), a.Env)
	}
	for i, l := range a.Literals {
		where := fmt.Sprintf("literals[%d]", i)
		p, err := l.pair(where)
		if err != nil {
			return src, fnrun.Errorf(e.where, nil, where, "%v", err)
		}
		src.Literals = append(src.Literals, p)
	}
	return src, nil
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

// checkOverlays checks that each mergeValues key is among the pairs and that
// its value (the overlay) parses in the key's format.
func checkOverlays(e entry, pairs []kv.Pair, formats valueRules) *framework.Result {
	have := map[string]kv.Pair{}
	for _, p := range pairs {
		have[p.Key] = p
	}
	for i, mv := range e.args.MergeValues {
		where := e.mergeValuesAt(i)
		p, ok := have[mv.Key]
		if !ok {
			return fnrun.Errorf(where, nil, "", "key %q is not among the generator's literals, files or envs", mv.Key)
		}
		if err := valuemerge.Check(formats[mv.Key].format, p.Value, "overlay"); err != nil {
			return fnrun.Errorf(where, nil, "", "key %q (from %s): %v", mv.Key, p.Source, err)
		}
	}
	return nil
}
