//go:build !linux

package host

import "errors"

// feed is the index's change feed; only Linux has one (feed_linux.go):
// elsewhere the module looks at each indexed file a grep takes.
type feed struct{}

func newFeed(string) (*feed, error) { return nil, errors.New("host: no change feed on this system") }

func (*feed) take() ([]string, bool) { return nil, true }

func (*feed) close() {}
