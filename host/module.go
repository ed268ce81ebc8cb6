package host

import (
	"bytes"
	_ "embed"
)

// moduleWasm is the rootbound WASI module, built from ../guest by
//
//	make wasm
//
// which runs: GOOS=wasip1 GOARCH=wasm go build -trimpath -buildvcs=false -ldflags=-buildid= -o host/rootbound.wasm ./guest
//
// The bytes are committed; a test and CI rebuild them and fail if they differ.
//
//go:generate sh -c "cd .. && make wasm"
//go:embed rootbound.wasm
var moduleWasm []byte

// Module returns a copy of the embedded module, for hosts other than this
// package's (the wasmtime and Node examples load the same bytes).
func Module() []byte { return bytes.Clone(moduleWasm) }
