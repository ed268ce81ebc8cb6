package options

import "testing"

// TestCommandFlags: every row of CommandFlags says what it does; no flag
// is spelled twice in a subcommand (by the call's options or the
// command's own rows); a refused flag is one no row takes, unless only a
// value of it is refused.
func TestCommandFlags(t *testing.T) {
	for _, tool := range All {
		taken := map[string]string{} // "--long" or "-s": what takes it
		take := func(spelling, by string) {
			if spelling == "--" || spelling == "-" {
				return
			}
			if other, ok := taken[spelling]; ok {
				t.Errorf("%s: %s is taken by %s and by %s", Names[tool], spelling, other, by)
			}
			taken[spelling] = by
		}
		for _, o := range For(tool) {
			for _, f := range o.Flags {
				if f.For(tool, o) {
					take("--"+f.Long, "option "+o.Name)
					take("-"+f.Short, "option "+o.Name)
				}
			}
		}
		rows := CommandFlagsFor(tool)
		for _, f := range rows {
			name := "--" + f.Long
			if f.Long == "" {
				name = "-" + f.Short
			}
			switch {
			case f.Long == "" && f.Short == "":
				t.Errorf("%s: a row with no spelling", Names[tool])
			case f.Effect == Refused && (f.What == "" || f.Instead == ""):
				t.Errorf("%s: %s is refused without saying what it does there and what to type instead", Names[tool], name)
			case f.Effect != Refused && f.Help == "":
				t.Errorf("%s: %s has no help", Names[tool], name)
			case (f.Setting == "") != (f.Effect == Refused || f.Effect == Accepted):
				t.Errorf("%s: %s: a setting is named by every row that is neither accepted nor refused, and by no other", Names[tool], name)
			case f.Kind == FlagTri && f.Value != "true" && f.Value != "false":
				t.Errorf("%s: %s sets a shared setting to %q, want true or false", Names[tool], name, f.Value)
			}
			if f.Effect != Refused {
				take("--"+f.Long, "the command's "+name)
				take("-"+f.Short, "the command's "+name)
			}
		}
		for _, f := range rows {
			if f.Effect != Refused || f.Value != "" {
				continue
			}
			for _, s := range []string{"--" + f.Long, "-" + f.Short} {
				if by, ok := taken[s]; ok && s != "--" && s != "-" {
					t.Errorf("%s: %s is refused, and taken by %s", Names[tool], s, by)
				}
			}
		}
	}
}
