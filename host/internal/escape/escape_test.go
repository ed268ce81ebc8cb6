package escape

import "testing"

func TestPath(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{name: "plain", in: "src/main.go", want: "src/main.go"},
		{name: "spaces and unicode", in: "docs/a b/é.md", want: "docs/a b/é.md"},
		{name: "newline forgery", in: "x\nsrc/main.go:1:fake", want: `"x\nsrc/main.go:1:fake"`},
		{name: "escape sequence", in: "a\x1b[31mred", want: `"a\x1b[31mred"`},
		{name: "carriage return", in: "a\rb", want: `"a\rb"`},
		{name: "tab", in: "a\tb", want: `"a\tb"`},
		{name: "invalid utf8", in: "a\xffb", want: `"a\xffb"`},
		{name: "leading quote", in: `"quoted"`, want: `"\"quoted\""`},
		{name: "line separator", in: "a\u2028b", want: `"a\u2028b"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Path(tt.in); got != tt.want {
				t.Errorf("Path(%q) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestLine(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{name: "plain", in: "\tfunc main() {", want: "\tfunc main() {"},
		{name: "escape", in: "a\x1b[2Jb", want: `a\x1b[2Jb`},
		{name: "cr", in: "a\rb", want: `a\rb`},
		{name: "invalid", in: "a\xfe", want: `a\xfe`},
		{name: "c1 and separators", in: "\u0085\u2029", want: `\x85\u2029`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Line(tt.in); got != tt.want {
				t.Errorf("Line(%q) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}
