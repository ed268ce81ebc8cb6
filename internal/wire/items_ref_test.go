package wire

import "github.com/rootbound/rootbound/protocol"

// The item codecs without an ItemWriter's or an ItemReader's memory: the
// references the tests hold those to.

// AppendItemLine appends the JSON line of an item (with its '\n'), as
// Encoder.Encode writes it.
func AppendItemLine(dst []byte, id string, it *protocol.Item) []byte {
	return appendItemLine(dst, id, -1, it, nil)
}

// ParseItemLine reads an item line exactly as AppendItemLine writes it. ok
// is false for any other line (a problem, a final line, or one written some
// other way), which the caller decodes with encoding/json.
func ParseItemLine(line []byte) (id string, it protocol.Item, ok bool) {
	id, seq, it, ok := ParseShardItemLine(line)
	if seq >= 0 {
		return "", protocol.Item{}, false
	}
	return id, it, ok
}

// ParseShardItemLine is ParseItemLine for a line that may carry a
// position (seq, -1 when it does not).
func ParseShardItemLine(line []byte) (id string, seq int64, it protocol.Item, ok bool) {
	return parseItemLine(line, nil)
}
