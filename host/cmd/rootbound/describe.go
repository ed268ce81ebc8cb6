package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	flag "github.com/spf13/pflag"

	"github.com/rootbound/rootbound/internal/options"
)

// The shells' completions and the man page are made from the flag sets
// the subcommands parse with, so they list exactly the flags the command
// takes: the table of options' and the command's own, each declared once.

// usage is the command's usage, on stderr for a bad command and on stdout
// for --help.
func usage() string {
	var b strings.Builder
	b.WriteString("usage:\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-38s  %s\n", strings.TrimSpace("rootbound "+c.name+" "+c.synopsis), c.summary)
	}
	b.WriteString("\nPATH is a directory or a file (default: the current directory).\nRun 'rootbound COMMAND --help' for its flags.\n")
	return b.String()
}

// describeArg, as a subcommand's only argument, makes parse hand its flag
// set to the describer instead of parsing (no argument can hold a NUL).
const describeArg = "\x00describe"

var (
	describeMu sync.Mutex
	describer  func(fs *flag.FlagSet, usage string)
)

// described is a subcommand's flags as parse takes them.
type described struct {
	name, synopsis, summary, usage string
	flags                          []*flag.Flag
	values                         map[string][]string // a flag's long name: the values it takes
}

// describe returns every subcommand with its flags.
func describe() []described {
	describeMu.Lock()
	defer describeMu.Unlock()
	var out []described
	for _, c := range commands {
		d := described{name: c.name, synopsis: c.synopsis, summary: c.summary, values: map[string][]string{}}
		if !c.flagless {
			describer = func(fs *flag.FlagSet, usage string) {
				d.usage = usage
				fs.VisitAll(func(f *flag.Flag) { d.flags = append(d.flags, f) })
			}
			run([]string{c.name, describeArg}, nil, io.Discard, io.Discard)
			describer = nil
		}
		if t, ok := toolOf(c.name); ok {
			for _, o := range options.For(t) {
				for _, f := range o.Flags {
					if !f.For(t, o) || !f.TakesArg(o) {
						continue
					}
					switch {
					case f.Map != nil:
						d.values[f.Long] = slices.Sorted(func(yield func(string) bool) {
							for k := range f.Map {
								if !yield(k) {
									return
								}
							}
						})
					case o.Kind == options.Enum:
						d.values[f.Long] = o.Values
					}
				}
			}
		}
		switch c.name {
		case "completion":
			d.values[""] = []string{"bash", "zsh", "fish"}
		}
		out = append(out, d)
	}
	return out
}

// toolOf returns the tool of a subcommand that is one.
func toolOf(name string) (options.Tool, bool) {
	for t, n := range options.Names {
		if n == name {
			return t, true
		}
	}
	return 0, false
}

// takesArg reports whether a flag takes an argument.
func takesArg(f *flag.Flag) bool { return f.NoOptDefVal == "" }

// completion is `rootbound completion SHELL`.
func completion(args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && (args[0] == "--help" || args[0] == "-h") {
		fmt.Fprint(stdout, "usage: rootbound completion bash|zsh|fish\n  print the completions of the shell; for example, in ~/.bashrc:\n    source <(rootbound completion bash)\n")
		return 0
	}
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-V") {
		fmt.Fprintln(stdout, version())
		return 0
	}
	if len(args) != 1 {
		fmt.Fprintln(stderr, "rootbound completion: want one of bash, zsh, fish")
		return 2
	}
	cmds := describe()
	switch args[0] {
	case "bash":
		bashCompletion(stdout, cmds)
	case "zsh":
		zshCompletion(stdout, cmds)
	case "fish":
		fishCompletion(stdout, cmds)
	default:
		fmt.Fprintf(stderr, "rootbound completion: unknown shell %q, want bash, zsh or fish\n", args[0])
		return 2
	}
	return 0
}

func bashCompletion(w io.Writer, cmds []described) {
	fmt.Fprint(w, "# bash completion for rootbound (rootbound completion bash)\n_rootbound() {\n")
	fmt.Fprint(w, "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n")
	fmt.Fprint(w, "    if (( COMP_CWORD == 1 )); then\n")
	names := make([]string, len(cmds))
	for i, c := range cmds {
		names[i] = c.name
	}
	fmt.Fprintf(w, "        COMPREPLY=($(compgen -W '%s' -- \"$cur\"))\n        return\n    fi\n", strings.Join(names, " "))
	fmt.Fprint(w, "    local flags='' args='' values=''\n    case ${COMP_WORDS[1]} in\n")
	for _, c := range cmds {
		var flags, args []string
		for _, f := range c.flags {
			flags = append(flags, "--"+f.Name)
			if f.Shorthand != "" {
				flags = append(flags, "-"+f.Shorthand)
			}
			if takesArg(f) {
				args = append(args, "--"+f.Name)
				if f.Shorthand != "" {
					args = append(args, "-"+f.Shorthand)
				}
			}
		}
		fmt.Fprintf(w, "    %s)\n        flags='%s'\n        args=' %s '\n", c.name, strings.Join(flags, " "), strings.Join(args, " "))
		fmt.Fprint(w, "        case $prev in\n")
		for _, f := range c.flags {
			if v, ok := c.values[f.Name]; ok {
				spell := "--" + f.Name
				if f.Shorthand != "" {
					spell += "|-" + f.Shorthand
				}
				fmt.Fprintf(w, "        %s) values='%s' ;;\n", spell, strings.Join(v, " "))
			}
		}
		fmt.Fprint(w, "        esac\n")
		if v, ok := c.values[""]; ok {
			fmt.Fprintf(w, "        (( COMP_CWORD == 2 )) && values='%s'\n", strings.Join(v, " "))
		}
		fmt.Fprint(w, "        ;;\n")
	}
	fmt.Fprint(w, `    esac
    if [[ -n $values ]]; then
        COMPREPLY=($(compgen -W "$values" -- "$cur"))
    elif [[ $args == *" $prev "* ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))
    elif [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$flags" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -o bashdefault -F _rootbound rootbound
`)
}

// zshQuote quotes s for a zsh _arguments spec's description.
func zshQuote(s string) string {
	r := strings.NewReplacer(`'`, `'\''`, "[", `\[`, "]", `\]`, ":", `\:`)
	return r.Replace(s)
}

func zshCompletion(w io.Writer, cmds []described) {
	fmt.Fprint(w, "#compdef rootbound\n# zsh completion for rootbound (rootbound completion zsh)\n\n_rootbound() {\n")
	fmt.Fprint(w, "    local -a commands\n    commands=(\n")
	for _, c := range cmds {
		fmt.Fprintf(w, "        '%s:%s'\n", c.name, zshQuote(c.summary))
	}
	fmt.Fprint(w, "    )\n    if (( CURRENT == 2 )); then\n        _describe 'command' commands\n        return\n    fi\n")
	fmt.Fprint(w, "    local cmd=${words[2]}\n    shift words\n    (( CURRENT-- ))\n    case $cmd in\n")
	for _, c := range cmds {
		fmt.Fprintf(w, "    %s)\n        _arguments -s \\\n", c.name)
		for _, f := range c.flags {
			help, _ := flagUsage(f)
			action := ""
			if takesArg(f) {
				action = ":" + strings.ToLower(f.Name) + ":_files"
				if v, ok := c.values[f.Name]; ok {
					action = ":" + strings.ToLower(f.Name) + ":(" + strings.Join(v, " ") + ")"
				}
			}
			spec := "--" + f.Name
			if f.Shorthand != "" {
				spec = "{-" + f.Shorthand + ",--" + f.Name + "}"
			}
			fmt.Fprintf(w, "            %s'[%s]%s' \\\n", spec, zshQuote(help), action)
		}
		if v, ok := c.values[""]; ok {
			fmt.Fprintf(w, "            '1:shell:(%s)'\n", strings.Join(v, " "))
		} else {
			fmt.Fprint(w, "            '*:file:_files'\n")
		}
		fmt.Fprint(w, "        ;;\n")
	}
	fmt.Fprint(w, "    esac\n}\n\nif [[ $zsh_eval_context[-1] == loadautofunc ]]; then\n    _rootbound \"$@\"\nelse\n    compdef _rootbound rootbound\nfi\n")
}

// fishQuote quotes s for fish, in single quotes.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

func fishCompletion(w io.Writer, cmds []described) {
	fmt.Fprint(w, "# fish completion for rootbound (rootbound completion fish)\ncomplete -c rootbound -f\n")
	names := make([]string, len(cmds))
	for i, c := range cmds {
		names[i] = c.name
	}
	none := "not __fish_seen_subcommand_from " + strings.Join(names, " ")
	for _, c := range cmds {
		fmt.Fprintf(w, "complete -c rootbound -n '%s' -a %s -d %s\n", none, c.name, fishQuote(c.summary))
	}
	for _, c := range cmds {
		cond := "'__fish_seen_subcommand_from " + c.name + "'"
		for _, f := range c.flags {
			help, _ := flagUsage(f)
			line := fmt.Sprintf("complete -c rootbound -n %s -l %s", cond, f.Name)
			if f.Shorthand != "" {
				line += " -s " + f.Shorthand
			}
			if takesArg(f) {
				line += " -r"
				if v, ok := c.values[f.Name]; ok {
					line += " -f -a " + fishQuote(strings.Join(v, " "))
				} else {
					line += " -F"
				}
			}
			fmt.Fprintf(w, "%s -d %s\n", line, fishQuote(help))
		}
		if v, ok := c.values[""]; ok {
			fmt.Fprintf(w, "complete -c rootbound -n %s -f -a %s\n", cond, fishQuote(strings.Join(v, " ")))
		} else if c.name != "version" && c.name != "man" {
			fmt.Fprintf(w, "complete -c rootbound -n %s -F\n", cond)
		}
	}
}

// flagUsage returns a flag's help and the name of its argument.
func flagUsage(f *flag.Flag) (help, arg string) {
	arg, help = flag.UnquoteUsage(f)
	if !strings.Contains(f.Usage, "`") {
		arg = strings.ToUpper(arg)
	}
	return help, arg
}
