package protocol

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzEscapeName(f *testing.F) {
	for _, s := range []string{"bad\xffname.txt", "ok.txt", "\uFFFF", "\uFFFFbad", "\xc3", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if utf8.ValidString(name) {
			if got, ok := UnescapeName(name); ok && got == name {
				t.Fatalf("UnescapeName(%q) took a valid name as escaped, as itself", name)
			}
			return
		}
		e := EscapeName(name)
		if !utf8.ValidString(e) {
			t.Fatalf("EscapeName(%q) = %q, not UTF-8", name, e)
		}
		got, ok := UnescapeName(e)
		if strings.ContainsAny(name, "/\x00") {
			if ok {
				t.Fatalf("UnescapeName took %q, which is no one name", name)
			}
			return
		}
		if !ok || got != name {
			t.Fatalf("UnescapeName(EscapeName(%q)) = %q, %v", name, got, ok)
		}
	})
}
