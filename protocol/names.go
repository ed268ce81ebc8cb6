package protocol

import (
	"bytes"
	"encoding/base64"
	"strings"
	"unicode/utf8"
)

// nameMark starts an escaped name: U+FFFF, a noncharacter no file name
// needs.
const nameMark = "\uFFFF"

// EscapeName writes a file name that is not valid UTF-8 (a name is bytes)
// as one that is, for runtimes that take only UTF-8 paths (wazero refuses
// any other before a file system sees it): U+FFFF, then the name's bytes in
// base64 (URL alphabet, no padding). A host that can open such names (the
// wazero host's mount, package rootfs) reads it back with UnescapeName; on
// any other it names no file, and the module says the name cannot be
// opened. A valid name is never escaped.
func EscapeName(name string) string {
	return nameMark + base64.RawURLEncoding.EncodeToString([]byte(name))
}

// UnescapeName reads back a name EscapeName wrote. It takes only one whose
// bytes are not valid UTF-8 and make one name (no "/", no NUL), so a valid
// name is always read as itself (bar one spelled exactly as the escape of
// a name that is not, which is then taken for that name), and no escape
// can add a component to a path.
func UnescapeName(s string) (string, bool) {
	rest, ok := strings.CutPrefix(s, nameMark)
	if !ok {
		return s, false
	}
	b, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil || utf8.Valid(b) || bytes.IndexByte(b, '/') >= 0 || bytes.IndexByte(b, 0) >= 0 {
		return s, false
	}
	return string(b), true
}
