// kubelet-oracle: the kubelet's own decoding code as a test oracle, built against
// the released Go modules k8s.io/kubelet, k8s.io/apimachinery, k8s.io/component-base
// and sigs.k8s.io/yaml (versions in go.mod). No upstream source is copied here.
//
// Reads a JSON array of strings on stdin; the first argument says what they are:
//
//	decode    KubeletConfiguration files. Each is decoded the way the kubelet's
//	          loader does (pkg/kubelet/kubeletconfig/util/codec DecodeKubeletConfiguration,
//	          kubernetes v1.37): a strict UniversalDecoder first; when that fails with a
//	          strict-decoding error only (unknown or duplicate fields), a lenient decoder
//	          (component-base/codec NewLenientSchemeAndCodecs) with v1beta1 registered, whose
//	          failure reports the strict error. An empty file is refused before decoding
//	          (pkg/kubelet/kubeletconfig/configfiles: "was empty").
//	          Answer per file: {"ok":true,"json":<the decoded v1beta1 object>,"lenient":"<strict error>"}
//	          or {"ok":false,"err":"..."}.
//	          Difference from the kubelet: the object is decoded into v1beta1 itself (the internal
//	          type and its defaulting live in k8s.io/kubernetes, not a staging module), so defaulting
//	          and the conversion to the internal type are not run; neither can fail on a decoded object.
//	quantity  resource.ParseQuantity per string: {"ok":true,"string":q.String(),"value":q.Value(),"milli":q.MilliValue()}
//	          or {"ok":false,"err":"..."}.
//	duration  time.ParseDuration per string: {"ok":true,"nanos":<int64>} or {"ok":false,"err":"..."}.
//
// Built by scripts/oracle-setup.sh (modules through the Go module proxy, cached).
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/component-base/codec"
	kubeletv1beta1 "k8s.io/kubelet/config/v1beta1"
)

type answer struct {
	OK      bool            `json:"ok"`
	Err     string          `json:"err,omitempty"`
	Lenient string          `json:"lenient,omitempty"`
	JSON    json.RawMessage `json:"json,omitempty"`
	String  string          `json:"string,omitempty"`
	Value   *int64          `json:"value,omitempty"`
	Milli   *int64          `json:"milli,omitempty"`
	Nanos   *int64          `json:"nanos,omitempty"`
}

var strict, lenient *serializer.CodecFactory

func setup() error {
	scheme := runtime.NewScheme()
	if err := kubeletv1beta1.AddToScheme(scheme); err != nil {
		return err
	}
	c := serializer.NewCodecFactory(scheme, serializer.EnableStrict)
	strict = &c
	_, l, err := codec.NewLenientSchemeAndCodecs(kubeletv1beta1.AddToScheme)
	lenient = l
	return err
}

func decodeWith(c *serializer.CodecFactory, data []byte) (obj runtime.Object, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	obj, _, err = c.UniversalDecoder(kubeletv1beta1.SchemeGroupVersion).Decode(data, nil, nil)
	return obj, err
}

func decode(doc string) answer {
	data := []byte(doc)
	if len(data) == 0 {
		return answer{Err: "config file was empty"}
	}
	obj, err := decodeWith(strict, data)
	lenientNote := ""
	if err != nil {
		if !runtime.IsStrictDecodingError(err) {
			return answer{Err: "failed to decode: " + err.Error()}
		}
		var lerr error
		obj, lerr = decodeWith(lenient, data)
		if lerr != nil {
			return answer{Err: "failed lenient decoding: " + err.Error()}
		}
		lenientNote = err.Error()
	}
	kc, ok := obj.(*kubeletv1beta1.KubeletConfiguration)
	if !ok {
		return answer{Err: fmt.Sprintf("not a KubeletConfiguration: %T", obj)}
	}
	out, err := json.Marshal(kc)
	if err != nil {
		return answer{Err: "marshal: " + err.Error()}
	}
	return answer{OK: true, JSON: out, Lenient: lenientNote}
}

func quantity(s string) (a answer) {
	defer func() {
		if r := recover(); r != nil {
			a = answer{Err: fmt.Sprintf("panic: %v", r)}
		}
	}()
	q, err := resource.ParseQuantity(s)
	if err != nil {
		return answer{Err: err.Error()}
	}
	v, m := q.Value(), q.MilliValue()
	return answer{OK: true, String: q.String(), Value: &v, Milli: &m}
}

func duration(s string) answer {
	d, err := time.ParseDuration(s)
	if err != nil {
		return answer{Err: err.Error()}
	}
	n := int64(d)
	return answer{OK: true, Nanos: &n}
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: kubelet-oracle decode|quantity|duration < JSON array of strings")
		os.Exit(2)
	}
	in, err := io.ReadAll(os.Stdin)
	if err == nil {
		err = setup()
	}
	var items []string
	if err == nil {
		err = json.Unmarshal(in, &items)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	f := map[string]func(string) answer{"decode": decode, "quantity": quantity, "duration": duration}[os.Args[1]]
	if f == nil {
		fmt.Fprintln(os.Stderr, errors.New("unknown mode "+os.Args[1]))
		os.Exit(2)
	}
	out := make([]answer, len(items))
	for i, s := range items {
		out[i] = f(s)
	}
	b, _ := json.Marshal(out)
	os.Stdout.Write(b)
}
