package validate

import (
	"encoding/base64"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/schema"
)

// got says what a place holds: a scalar with its value ("the string
// \"3\"", "the number 3000000000"), cut to 40 characters; a Secret's
// without it.
func (c *checker) got(v *yaml.Node) string {
	if c.o.Secret || v.Kind != yaml.ScalarNode {
		return yamltree.DescribeSecret(v, c.o.Secret)
	}
	if isString(v.ShortTag()) {
		return "the string " + strconv.Quote(cut(v.Value))
	}
	return yamltree.Describe(v)
}

// length says how long a string is, with its value unless secret.
func (c *checker) length(v *yaml.Node, n int64) string {
	if c.o.Secret {
		return "a string of " + plural(n, "character")
	}
	return fmt.Sprintf("the string %q (%s)", cut(v.Value), plural(n, "character"))
}

func cut(s string) string {
	const most = 40
	if r := []rune(s); len(r) > most {
		return string(r[:most]) + "…"
	}
	return s
}

func plural(n int64, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// intBounds are the integers int32 and int64 take.
var intBounds = map[string][2]float64{
	"int32": {math.MinInt32, math.MaxInt32},
	"int64": {math.MinInt64, math.MaxInt64},
}

// quantity is a Kubernetes quantity's grammar (resource.ParseQuantity): a
// signed decimal number, then a binary or decimal suffix, or an exponent.
var quantity = regexp.MustCompile(`^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+|Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$`)

// formatOK checks a scalar against r's format; false with what the format
// wants. Formats other than these are not checked.
func formatOK(r *schema.Rule, v *yaml.Node) (string, bool) {
	tag := v.ShortTag()
	switch {
	case tag == yaml.NodeTagInt && intBounds[r.Format] != [2]float64{}:
		b := intBounds[r.Format]
		i, err := strconv.ParseInt(strings.ReplaceAll(v.Value, "_", ""), 0, 64)
		return fmt.Sprintf("an integer from %.0f to %.0f (%s)", b[0], b[1], r.Format), err == nil && float64(i) >= b[0] && float64(i) <= b[1]
	case !isString(tag):
		return "", true
	case r.Format == "quantity":
		return "a quantity (a number, or a string such as 500m or 1Gi)", quantity.MatchString(v.Value)
	case r.Format == "byte":
		_, err := base64.StdEncoding.DecodeString(v.Value)
		return "base64 data", err == nil
	case r.Format == "date-time":
		return "a time in RFC 3339 (2006-01-02T15:04:05Z)", isTime(v.Value)
	}
	return "", true
}

// timeLayouts are the times a date-time may be written as.
var timeLayouts = []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999"}

func isTime(s string) bool {
	for _, l := range timeLayouts {
		if _, err := time.Parse(l, s); err == nil {
			return true
		}
	}
	return false
}

// inBounds checks a number against r's minimum and maximum.
func inBounds(r *schema.Rule, f float64) (string, bool) {
	switch {
	case r.Minimum != nil && r.ExclusiveMinimum && f <= *r.Minimum:
		return "a number greater than " + number(*r.Minimum), false
	case r.Minimum != nil && f < *r.Minimum:
		return "a number of at least " + number(*r.Minimum), false
	case r.Maximum != nil && r.ExclusiveMaximum && f >= *r.Maximum:
		return "a number less than " + number(*r.Maximum), false
	case r.Maximum != nil && f > *r.Maximum:
		return "a number of at most " + number(*r.Maximum), false
	}
	return "", true
}

func number(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// patterns holds the schemas' patterns compiled; one that Go cannot
// compile (a lookahead) is nil: not checked.
var patterns sync.Map

func compiled(pattern string) *regexp.Regexp {
	if pattern == "" {
		return nil
	}
	if re, ok := patterns.Load(pattern); ok {
		return re.(*regexp.Regexp)
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		re = nil
	}
	patterns.Store(pattern, re)
	return re
}
