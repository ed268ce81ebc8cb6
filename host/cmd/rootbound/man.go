package main

import (
	"fmt"
	"io"
	"strings"
)

// manPage is `rootbound man`: the manual page in roff (man -l - reads it),
// made from the flag sets the subcommands parse with.
func manPage(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "--help", "-h":
			fmt.Fprint(stdout, "usage: rootbound man\n  print the manual page in roff; read it with: rootbound man | man -l -\n")
			return 0
		case "--version", "-V":
			fmt.Fprintln(stdout, version())
			return 0
		}
		fmt.Fprintln(stderr, "rootbound man: takes no argument")
		return 2
	}
	writeMan(stdout, describe())
	return 0
}

// roff escapes text for a roff line: backslashes, dashes (as minus signs,
// so a flag can be searched for and pasted), and a leading dot or quote.
func roff(s string) string {
	s = strings.NewReplacer(`\`, `\e`, "-", `\-`).Replace(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

func writeMan(w io.Writer, cmds []described) {
	v := strings.TrimPrefix(strings.Fields(version())[1], "v")
	fmt.Fprintf(w, ".TH ROOTBOUND 1 \"\" \"rootbound %s\" \"User Commands\"\n", roff(v))
	fmt.Fprint(w, ".SH NAME\nrootbound \\- glob, grep, read, list and stat inside a WebAssembly sandbox\n")
	fmt.Fprint(w, ".SH SYNOPSIS\n")
	for _, c := range cmds {
		fmt.Fprintf(w, ".B rootbound %s\n", c.name)
		if c.synopsis != "" {
			fmt.Fprintf(w, "%s\n", roff(c.synopsis))
		}
		fmt.Fprint(w, ".br\n")
	}
	fmt.Fprint(w, `.SH DESCRIPTION
rootbound finds files by name and searches their contents as
.BR fd (1)
and
.BR rg (1)
do, with their everyday flags and output, but inside a WebAssembly module that
can read nothing outside the directories its host opens for it. No symbolic
link is followed at any component of any path,
.B ..
never leaves a root,
.B .git
is never read, and FIFOs and devices are never opened. The same module serves
agents over MCP
.RB ( "rootbound mcp" )
and over a JSON\-lines protocol
.RB ( "rootbound serve" ).
.PP
PATH is a directory or a single file (default: the current directory).
.SH COMMANDS
`)
	for _, c := range cmds {
		fmt.Fprintf(w, ".SS %s\n%s.\n", roff("rootbound "+c.name), roff(c.summary))
		if len(c.flags) == 0 {
			continue
		}
		fmt.Fprint(w, ".PP\n")
		for _, f := range c.flags {
			help, arg := flagUsage(f)
			spec := `\fB\-\-` + roff(f.Name) + `\fR`
			if f.Shorthand != "" {
				spec = `\fB\-` + roff(f.Shorthand) + `\fR, ` + spec
			}
			if takesArg(f) {
				spec += ` \fI` + roff(arg) + `\fR`
			}
			if vals, ok := c.values[f.Name]; ok {
				help += " (" + strings.Join(vals, ", ") + ")"
			}
			fmt.Fprintf(w, ".TP\n%s\n%s\n", spec, roff(help))
		}
	}
	fmt.Fprint(w, `.SH EXIT STATUS
As rg's: 0 when something was found, 1 when nothing was, 2 on an error or when
a file could not be read (results found before it are still printed).
.SH ENVIRONMENT
.TP
.B ROOTBOUND_SERVER
.B off
keeps every call in its own process (as
.BR \-\-no\-server ).
.TP
.B ROOTBOUND_SERVER_DIR
the directory of the resident server's socket (default:
.B $XDG_RUNTIME_DIR/rootbound
or
.B rootbound\-UID
in the temporary directory).
.TP
.BR TERM ", " NO_COLOR
as rg reads them:
.B \-\-color auto
colours a terminal (and
.B \-p
any output) only when TERM is set and not
.BR dumb ,
and NO_COLOR is not set.
.TP
.B ROOTBOUND_MCP_TOKEN
a bearer token every request to
.B rootbound mcp \-\-http
must carry; without it, only loopback addresses are served.
.SH SEE ALSO
.BR rg (1),
.BR fd (1),
.BR cat (1)
`)
}
