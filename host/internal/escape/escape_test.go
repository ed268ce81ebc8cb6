package escape

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"testing"
)

// Cases is testdata/escape/cases.json: the one table every printer of
// rootbound is held to (the Node host's test reads it too).
type Cases struct {
	Cases []struct {
		Name     string `json:"name"`
		In       string `json:"in"`
		InBase64 string `json:"in_base64"`
		Path     string `json:"path"`
		Line     string `json:"line"`
	} `json:"cases"`
}

func TestCases(t *testing.T) {
	raw, err := os.ReadFile("../../../testdata/escape/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cs Cases
	if err := json.Unmarshal(raw, &cs); err != nil {
		t.Fatal(err)
	}
	for _, c := range cs.Cases {
		t.Run(c.Name, func(t *testing.T) {
			in := c.In
			if c.InBase64 != "" {
				b, err := base64.StdEncoding.DecodeString(c.InBase64)
				if err != nil {
					t.Fatal(err)
				}
				in = string(b)
			}
			if got := Path(in); got != c.Path {
				t.Errorf("Path(%q) = %s, want %s", in, got, c.Path)
			}
			if got := Line(in); got != c.Line {
				t.Errorf("Line(%q) = %s, want %s", in, got, c.Line)
			}
		})
	}
}
