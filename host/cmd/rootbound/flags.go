package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	flag "github.com/spf13/pflag"

	"github.com/rootbound/rootbound/host/internal/printer"
	"github.com/rootbound/rootbound/internal/options"
)

// The flags of a call come from the table of options (internal/options);
// this file binds them to pflag, so that the library does not depend on it.

// values holds what a command line set, by option name, in the order the
// flags came (the last of -i and -S wins, as in rg).
type values struct {
	tool options.Tool
	set  map[string]any
}

// bindOptions adds the flags of tool's options to fs. What they set
// collects in the returned values.
func bindOptions(fs *flag.FlagSet, tool options.Tool) *values {
	v := &values{tool: tool, set: map[string]any{}}
	for _, o := range options.For(tool) {
		for _, f := range o.Flags {
			if !f.For(tool, o) {
				continue
			}
			fv := &flagValue{v: v, o: o, f: f}
			pf := fs.VarPF(fv, f.Long, f.Short, f.Help)
			if !f.TakesArg(o) {
				pf.NoOptDefVal = "true"
			}
		}
	}
	return v
}

// Args returns the call's arguments as JSON: the command's defaults, what
// the flags set, and pattern (for a tool that takes one) and path.
func (v *values) Args(pattern, path string) ([]byte, error) {
	args := map[string]any{}
	for _, o := range options.For(v.tool) {
		if o.CLIDefault != "" {
			var d any
			if err := json.Unmarshal([]byte(o.CLIDefault), &d); err != nil {
				return nil, fmt.Errorf("options: default of %s: %w", o.Name, err)
			}
			args[o.Name] = d
		}
	}
	for k, x := range v.set {
		args[k] = x
	}
	if _, ok := options.Lookup(v.tool, "pattern"); ok {
		args["pattern"] = pattern
	}
	if path != "" {
		args["path"] = path
	}
	return json.Marshal(args)
}

// flagValue is one flag: it sets its option in Values.
type flagValue struct {
	v *values
	o options.Option
	f options.Flag
}

func (fv *flagValue) String() string { return "" }

// Type names the flag's argument in help; "bool" (pflag's word) for a flag
// that takes none.
func (fv *flagValue) Type() string {
	if !fv.f.TakesArg(fv.o) {
		return "bool"
	}
	return fv.f.Arg
}

// flagHelp writes the flags of fs as help: one per line, "-s, --long ARG",
// then the one-line help, in name order. A default is shown only where
// the flag's own help does not say it.
func flagHelp(fs *flag.FlagSet) string {
	type row struct{ spec, help string }
	var rows []row
	width := 0
	fs.VisitAll(func(f *flag.Flag) {
		spec := "    "
		if f.Shorthand != "" {
			spec = "-" + f.Shorthand + ", "
		}
		spec += "--" + f.Name
		// A `NAME` in the help names the argument, as pflag reads it.
		help, name := flagUsage(f)
		if f.Value.Type() != "bool" {
			spec += " " + name
		}
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "[]" && f.Value.Type() != "bool" && !strings.Contains(help, "default") {
			help += " (default " + f.DefValue + ")"
		}
		rows = append(rows, row{"  " + spec, help})
		width = max(width, len(rows[len(rows)-1].spec))
	})
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%-*s   %s\n", width, r.spec, r.help)
	}
	return b.String()
}

func (fv *flagValue) Set(s string) error {
	o, f, set := fv.o, fv.f, fv.v.set
	if f.Map != nil {
		v, ok := f.Map[s]
		if !ok {
			keys := slices.Sorted(maps.Keys(f.Map))
			return fmt.Errorf("want one of %s, not %q", strings.Join(keys, ", "), s)
		}
		if v == "" { // the option's default
			delete(set, o.Name)
			return nil
		}
		s = v
	}
	if f.Duration {
		d, err := parseDuration(s)
		if err != nil {
			return err
		}
		s = strconv.FormatInt(int64(math.Ceil(d.Seconds())), 10)
	}
	switch {
	case f.Value != "" && o.Kind == options.Bool:
		set[o.Name] = f.Value == "true"
	case f.Value != "" && o.Kind == options.Int:
		n, err := strconv.Atoi(f.Value)
		if err != nil {
			return err
		}
		set[o.Name] = n
	case f.Value != "":
		set[o.Name] = f.Value
	case o.Kind == options.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return fmt.Errorf("want true or false, not %q", s)
		}
		set[o.Name] = b
	case o.Kind == options.Int:
		n, err := strconv.Atoi(s)
		if err != nil {
			return fmt.Errorf("want a whole number, not %q", s)
		}
		set[o.Name] = n
	case o.Kind == options.Strings || o.Kind == options.Array:
		l, _ := set[o.Name].([]string)
		set[o.Name] = append(l, s)
	case o.Kind == options.Enum && !slices.Contains(o.Values, s):
		return fmt.Errorf("want %s, not %q", strings.Join(o.Values, " or "), s)
	default:
		set[o.Name] = s
	}
	return nil
}

// parseDuration reads a length of time as fd does ("10min", "2h", "3d",
// "1w", "2weeks", "90s") or as Go does ("1h30m").
func parseDuration(s string) (time.Duration, error) {
	if d, err := time.ParseDuration(s); err == nil && d > 0 {
		return d, nil
	}
	num := strings.TrimRightFunc(s, unicode.IsLetter)
	n, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	unit, ok := durationUnits[strings.ToLower(strings.TrimSpace(s[len(num):]))]
	if err != nil || !ok || n <= 0 {
		return 0, fmt.Errorf("want a length of time such as 10min, 2h, 3d or 1w, not %q", s)
	}
	return time.Duration(n * float64(unit)), nil
}

var durationUnits = map[string]time.Duration{
	"s": time.Second, "sec": time.Second, "secs": time.Second, "second": time.Second, "seconds": time.Second,
	"m": time.Minute, "min": time.Minute, "mins": time.Minute, "minute": time.Minute, "minutes": time.Minute,
	"h": time.Hour, "hr": time.Hour, "hrs": time.Hour, "hour": time.Hour, "hours": time.Hour,
	"d": 24 * time.Hour, "day": 24 * time.Hour, "days": 24 * time.Hour,
	"w": 7 * 24 * time.Hour, "week": 7 * 24 * time.Hour, "weeks": 7 * 24 * time.Hour,
	"month": 30 * 24 * time.Hour, "months": 30 * 24 * time.Hour, "y": 365 * 24 * time.Hour, "year": 365 * 24 * time.Hour, "years": 365 * 24 * time.Hour,
}

// byteSize is a size as rg's --max-filesize takes it: a number of bytes,
// or with a suffix K, M or G (powers of 1024).
type byteSize int64

func (b *byteSize) String() string { return strings.ReplaceAll(printer.Size(int64(*b)), " MiB", "M") }
func (b *byteSize) Type() string   { return "SIZE" }

func (b *byteSize) Set(s string) error {
	num, shift := s, 0
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 'K', 'k':
			num, shift = s[:n-1], 10
		case 'M', 'm':
			num, shift = s[:n-1], 20
		case 'G', 'g':
			num, shift = s[:n-1], 30
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64>>shift {
		return fmt.Errorf("want a size in bytes, or with K, M or G (8M), not %q", s)
	}
	*b = byteSize(n << shift)
	return nil
}
