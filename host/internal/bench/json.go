package main

import (
	"encoding/json"

	"github.com/rootbound/rootbound/guest/protocol"
)

func jsonLine(req protocol.Request) (string, error) {
	b, err := json.Marshal(req)
	return string(b) + "\n", err
}
