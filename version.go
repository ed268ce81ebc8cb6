// Package rootbound holds what every part of rootbound reports as its
// version: VERSION's, embedded, so that any build of the command (go
// build, go install, go run, make) says the release it is.
package rootbound

import (
	_ "embed"
	"strings"
)

//go:embed VERSION
var version string

// Version is the release's semantic version, as VERSION holds it.
func Version() string { return strings.TrimSpace(version) }
