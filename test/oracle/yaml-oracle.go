// yaml-oracle: the YAML decoder the kubelet uses (sigs.k8s.io/yaml, which reads
// YAML with go-yaml v2 and converts it to JSON), as a test oracle.
//
// Reads a JSON array of YAML documents on stdin and writes a JSON array with,
// for each, what YAMLToJSON and YAMLToJSONStrict (duplicate keys refused) say:
// {"json": "...", "err": "...", "strictErr": "..."}. Built by
// scripts/oracle-setup.sh with Debian's golang-go and golang-k8s-sigs-yaml-dev
// (GO111MODULE=off, GOPATH=/usr/share/gocode, no network).
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"sigs.k8s.io/yaml"
)

type result struct {
	JSON      *string `json:"json,omitempty"`
	Err       string  `json:"err,omitempty"`
	StrictErr string  `json:"strictErr,omitempty"`
}

// convert turns a panic of the decoder into an error (the oracle must answer every case).
func convert(f func([]byte) ([]byte, error), doc []byte) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f(doc)
}

func main() {
	in, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var docs []string
	if err := json.Unmarshal(in, &docs); err != nil {
		fmt.Fprintln(os.Stderr, "stdin must be a JSON array of strings:", err)
		os.Exit(2)
	}
	results := make([]result, len(docs))
	for i, d := range docs {
		if j, err := convert(yaml.YAMLToJSON, []byte(d)); err != nil {
			results[i].Err = err.Error()
		} else {
			s := string(j)
			results[i].JSON = &s
		}
		if _, err := convert(yaml.YAMLToJSONStrict, []byte(d)); err != nil {
			results[i].StrictErr = err.Error()
		}
	}
	out, _ := json.Marshal(results)
	os.Stdout.Write(out)
}
