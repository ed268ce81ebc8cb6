package host

import "github.com/rootbound/rootbound/protocol"

// The arguments of the tools are the protocol's, one type each,
// generated from the table of options (internal/options): what a Go
// caller passes is what the module reads.
type (
	GlobArgs = protocol.GlobArgs
	GrepArgs = protocol.GrepArgs
	ReadArgs = protocol.ReadArgs
	ListArgs = protocol.ListArgs
)
