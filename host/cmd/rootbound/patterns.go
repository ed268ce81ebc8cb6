package main

import (
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"unicode"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/internal/match"
	"github.com/rootbound/rootbound/protocol"
)

// readPatternFiles adds the patterns of each -f file, a line each, to
// -e's, as rg reads them. No pattern at all (an empty file, no -e) finds
// nothing: exit status 1, as rg's. A file that cannot be read is exit 2.
func (c *commandFlags) readPatternFiles(cwd string, stderr io.Writer) (code int, ok bool) {
	if len(c.patternFiles) == 0 {
		return 0, true
	}
	for _, name := range c.patternFiles {
		b, err := os.ReadFile(inDir(cwd, name))
		if err != nil {
			if pe, ok := err.(*os.PathError); ok {
				pe.Path = name
			}
			fmt.Fprintln(stderr, "rootbound grep:", err)
			return 2, false
		}
		if len(b) == 0 {
			continue // no pattern; a file of one empty line holds one
		}
		for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			c.regexps = append(c.regexps, strings.TrimSuffix(line, "\r"))
		}
	}
	if len(c.regexps) == 0 {
		return 1, false // no pattern: nothing matches
	}
	return 0, true
}

// replacer returns what rg -r does to a matching line: each match printed
// as the replacement, its $1, ${name} and $$ expanded from the match's
// groups (the pattern compiled here too, in Go's RE2, for its groups
// alone). Only the printed text changes.
func replacer(a host.GrepArgs, replacement string) (func(host.Item) host.Item, error) {
	var re *regexp.Regexp
	if strings.Contains(replacement, "$") {
		var err error
		if re, err = groupsRegexp(a); err != nil {
			return nil, fmt.Errorf("-r: %w", err)
		}
	}
	return func(it host.Item) host.Item {
		text := string(*it.Text)
		var groups [][]int
		if re != nil {
			groups = re.FindAllStringSubmatchIndex(text, -1)
		}
		var b strings.Builder
		spans := make([]host.Span, 0, len(it.Submatches))
		at := 0
		for _, sp := range it.Submatches {
			if sp.Start < at || sp.End > len(text) {
				continue
			}
			b.WriteString(text[at:sp.Start])
			start := b.Len()
			if re == nil {
				b.WriteString(replacement)
			} else {
				m := []int{sp.Start, sp.End} // $0 alone, if the groups disagree
				for _, g := range groups {
					if g[0] == sp.Start && g[1] == sp.End {
						m = g
						break
					}
				}
				b.Write(re.ExpandString(nil, replacement, text, m))
			}
			spans = append(spans, host.Span{Start: start, End: b.Len()})
			at = sp.End
		}
		b.WriteString(text[at:])
		out := host.Data(b.String())
		it.Text, it.Submatches = &out, spans
		return it
	}, nil
}

// groupsRegexp compiles a grep's patterns as one RE2 regexp, with its
// case and word rules, for the groups of a match.
func groupsRegexp(a host.GrepArgs) (*regexp.Regexp, error) {
	ps := append([]string{a.Pattern}, a.Patterns...)
	upper := false
	for i, p := range ps {
		upper = upper || strings.ContainsFunc(p, unicode.IsUpper)
		if a.Literal {
			p = regexp.QuoteMeta(p)
		} else {
			p = match.RE2(p)
		}
		ps[i] = "(?:" + p + ")"
	}
	expr := strings.Join(ps, "|")
	if a.Word {
		expr = `\b(?:` + expr + `)\b`
	}
	if a.Case == protocol.CaseInsensitive || a.Case == protocol.CaseSmart && !upper {
		expr = "(?i)" + expr
	}
	if a.Multiline {
		expr = "(?s)" + expr
	}
	return regexp.Compile("(?m)" + expr)
}

// regexGlob reads a glob that found nothing as fd's regular expression,
// which it may have been written as (`^zip.*\.go$`): isRegex when it shows
// a sign no glob would (an anchor, an escaped character, ".+", a group or
// an alternation), and then, when a glob can say what the expression
// matches in a name (anchors, ".", ".*", ".+", classes, escaped and plain
// characters), that glob: fd's expression matches a part of a name, so an
// end without its anchor becomes "*".
func regexGlob(p string) (glob string, isRegex, ok bool) {
	isRegex = strings.HasPrefix(p, "^") || strings.HasSuffix(p, "$") && !strings.HasSuffix(p, `\$`) ||
		strings.Contains(p, ".+") || strings.ContainsAny(p, "()|+") || regexp.MustCompile(`\\[.\w$^+()|]`).MatchString(p)
	if !isRegex {
		return "", false, false
	}
	var b strings.Builder
	rest, anchored := strings.CutPrefix(p, "^")
	if !anchored {
		b.WriteByte('*')
	}
	rest, ends := strings.CutSuffix(rest, "$")
	if ends && strings.HasSuffix(rest, `\`) { // "\$": a dollar sign, not an anchor
		rest, ends = rest+"$", false
	}
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; {
		case strings.HasPrefix(rest[i:], ".*"):
			b.WriteByte('*')
			i++
		case strings.HasPrefix(rest[i:], ".+"):
			b.WriteString("?*")
			i++
		case c == '.':
			b.WriteByte('?')
		case c == '\\' && i+1 < len(rest) && strings.IndexByte(`.\$^+*?()[]{}|/-`, rest[i+1]) >= 0:
			b.WriteString(globQuote.Replace(rest[i+1 : i+2]))
			i++
		case c == '[':
			end := strings.IndexByte(rest[i+1:], ']')
			if end < 0 {
				return "", true, false
			}
			class := rest[i+1 : i+1+end]
			if strings.ContainsAny(class, `\[`) {
				return "", true, false
			}
			if neg, ok := strings.CutPrefix(class, "^"); ok {
				class = "!" + neg
			}
			b.WriteString("[" + class + "]")
			i += end + 1
		case strings.IndexByte(`\$^+*?(){}|`, c) >= 0:
			return "", true, false // a glob cannot say it
		default:
			b.WriteString(globQuote.Replace(rest[i : i+1]))
		}
	}
	if !ends {
		b.WriteByte('*')
	}
	return b.String(), true, true
}
