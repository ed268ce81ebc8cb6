package server

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/rootbound/rootbound/protocol"
)

// stat sends one item of the path it names, picked as read picks a file
// (no link at any component, .git never, the root's deny list and hidden
// policy): a directory's kind, or a file's kind, size and count of lines
// as read numbers them. A file read would refuse as binary or over the
// size cap has no count, and done counts it (skipped binary, too_large);
// a FIFO, socket or device is not-a-file, as for read.
func (s *Server) stat(c *call, a *protocol.StatArgs) {
	if a.Path == "" {
		c.err = protocol.NewError(protocol.CodeInvalidArgument, `stat needs a path: the file or directory ("." for the default root)`)
		return
	}
	if c.err = c.maxResults(1); c.err != nil {
		return
	}
	sc, perr := s.scope(a.Path)
	if perr != nil && perr.Code == protocol.CodeNotADirectory {
		perr = protocol.NewError(protocol.CodeNotAFile, fmt.Sprintf("path %q is neither a directory nor a regular file (a FIFO, socket or device is never opened)", a.Path))
	}
	if perr != nil {
		c.err = perr
		return
	}
	defer sc.close()
	if _, perr := s.newWhich(c, sc, pick{noIgnore: true}, nil, false, policy(c.policy, sc.root.Name)); perr != nil {
		c.err = perr
		return
	}
	if c.err = c.setOffset(0, 0, 0); c.err != nil {
		return
	}
	c.started = true
	it := &protocol.Item{Path: protocol.Data(sc.display("")), Kind: protocol.KindFile}
	if sc.file {
		if st, err := sc.tree.Lstat(sc.rel); err == nil {
			it.Size = st.Size
		}
		data, perr := s.wholeFile(c, sc, a.Path)
		switch {
		case perr == nil:
			it.Count = lineCount(data)
		case perr.Code == protocol.CodeBinary:
			c.done.Skipped.Binary++
		case perr.Code == protocol.CodeTooLarge:
			c.done.Skipped.TooLarge++
		default:
			c.err = perr
			return
		}
	} else {
		// A directory's path ends in "/", as list shows it; the default
		// root's is "./".
		c.done.Stats.Dirs = 1
		it.Path, it.Kind = protocol.Data(strings.TrimSuffix(cmp.Or(sc.display(""), "."), "/")+"/"), protocol.KindDir
	}
	if err := c.emit(it); err != nil && c.writeErr != nil {
		c.err = protocol.AsError(err)
	}
}
