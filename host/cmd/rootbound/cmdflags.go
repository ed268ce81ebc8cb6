package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/rootbound/rootbound/internal/options"
)

// The command's own flags are rows of options.CommandFlags, as a call's
// options are rows of options.Table (flags.go binds those): this file
// binds each row of a subcommand to the setting it names, and finds a
// refused one (rg's or fd's) in a command line.

// settings are where the command keeps what its own flags set, by the
// name a row's Setting gives.
func (c *commandFlags) settings() map[string]any {
	return map[string]any{
		"json": &c.json, "timeout": &c.timeout, "maxSize": &c.maxSize, "noServer": &c.noServer,
		"typeList": &c.typeList, "noIgnoreParent": &c.noIgnoreParent, "noIgnoreGlobal": &c.noIgnoreGlobal,
		"unrestricted": &c.unrestricted, "threads": &c.threads, "follow": &c.follow, "quiet": &c.quiet,
		"color": &c.color, "pretty": &c.pretty, "stats": &c.stats, "regexps": &c.regexps, "lineRegexp": &c.lineRegexp,
		"patternFiles": &c.patternFiles, "replace": &c.replace, "trim": &c.trim, "sortr": &c.sortr, "files": &c.files,
		"lineNumbers": &c.lineNumbers, "filename": &c.filename, "heads": &c.heads, "column": &c.column,
		"vimgrep": &c.vimgrep, "null": &c.null, "absolute": &c.absolute, "extensions": &c.extensions,
		"caseSensitive": &c.caseSensitive, "fixed": &c.fixed, "sizes": &c.entries.sizes,
		"changedBefore": &c.entries.changedBefore, "minDepth": &c.entries.minDepth, "exactDepth": &c.exactDepth,
		"stripCWD": &c.stripCWD,
	}
}

// bindCommand adds the command's own flags of tool's subcommand to fs,
// each setting what its row names in c. A refused row is not a flag
// (refusedFlag finds it).
func bindCommand(fs *flag.FlagSet, tool options.Tool, c *commandFlags) {
	set := c.settings()
	for _, f := range options.CommandFlagsFor(tool) {
		p, ok := set[f.Setting]
		switch {
		case f.Effect == options.Refused:
			continue
		case f.Setting == "":
			p = new(bool) // accepted: set, and read by nothing
		case !ok:
			panic("options.CommandFlags: no setting " + f.Setting) // TestCommandFlags
		}
		switch f.Kind {
		case options.FlagBool:
			fs.BoolVarP(p.(*bool), f.Long, f.Short, f.Default == "true", f.Help)
		case options.FlagTri:
			fs.VarPF(triFlag{p.(*tri), f.Value == "true"}, f.Long, f.Short, f.Help).NoOptDefVal = "true"
		case options.FlagCount:
			fs.CountVarP(p.(*int), f.Long, f.Short, f.Help)
		case options.FlagString:
			fs.StringVarP(p.(*string), f.Long, f.Short, f.Default, f.Help)
		case options.FlagStrings:
			fs.StringArrayVarP(p.(*[]string), f.Long, f.Short, nil, f.Help)
		case options.FlagInt:
			n, _ := strconv.Atoi(f.Default)
			fs.IntVarP(p.(*int), f.Long, f.Short, n, f.Help)
		case options.FlagDuration:
			d, _ := time.ParseDuration(f.Default)
			fs.DurationVarP(p.(*time.Duration), f.Long, f.Short, d, f.Help)
		case options.FlagAge:
			fs.VarP((*durationValue)(p.(*time.Duration)), f.Long, f.Short, f.Help)
		case options.FlagSize:
			v := (*byteSize)(p.(*int64))
			if err := v.Set(f.Default); err != nil {
				panic(fmt.Sprintf("options.CommandFlags: --%s's default: %v", f.Long, err))
			}
			fs.VarP(v, f.Long, f.Short, f.Help)
		case options.FlagSizes:
			fs.VarP((*sizeBounds)(p.(*[]sizeBound)), f.Long, f.Short, f.Help)
		}
	}
}

// refusedFlag finds, in args, the first flag fs lacks that is a refused
// row of tool's (rg's or fd's), or a value a row refuses of a flag fs has
// ("--sort modified"), and returns it as typed.
func refusedFlag(tool options.Tool, fs *flag.FlagSet, args []string) (name string, f options.CommandFlag, ok bool) {
	find := func(long, short, value string) (options.CommandFlag, bool) {
		for _, f := range options.CommandFlagsFor(tool) {
			if f.Effect == options.Refused && f.Value == value && (long != "" && f.Long == long || short != "" && f.Short == short) {
				return f, true
			}
		}
		return options.CommandFlag{}, false
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return "", options.CommandFlag{}, false
		case strings.HasPrefix(a, "--"):
			long, _, hasValue := strings.Cut(a[2:], "=")
			if pf := fs.Lookup(long); pf != nil {
				value, _ := strings.CutPrefix(a, "--"+long+"=")
				if !hasValue && pf.NoOptDefVal == "" && i+1 < len(args) {
					i++ // its value
					value = args[i]
				}
				if f, ok := find(long, "", value); ok {
					return "--" + long + " " + value, f, true
				}
				continue
			}
			if f, ok := find(long, "", ""); ok {
				return "--" + long, f, true
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				pf := fs.ShorthandLookup(a[j : j+1])
				if pf == nil {
					if f, ok := find("", a[j:j+1], ""); ok {
						return "-" + a[j:j+1], f, true
					}
					break
				}
				if pf.NoOptDefVal == "" { // it takes a value: the rest, or the next argument
					if j == len(a)-1 {
						i++
					}
					break
				}
			}
		}
	}
	return "", options.CommandFlag{}, false
}
