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
//	types     (input ignored) one answer whose json is KubeletConfiguration's type tree as encoding/json sees
//	          it, read by reflection: {"k":"struct","fields":{...}}, {"k":"slice","elem":...}, {"k":"int","bits":32},
//	          "ptr":true for pointers; the types with their own UnmarshalJSON by name (duration, time,
//	          quantity, timeOrDuration).
//
// Built by scripts/oracle-setup.sh (modules through the Go module proxy, cached).
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/component-base/codec"
	logsapi "k8s.io/component-base/logs/api/v1"
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

// goType is one node of the type tree (mode types).
type goType struct {
	K      string             `json:"k"`
	Ptr    bool               `json:"ptr,omitempty"`
	Bits   int                `json:"bits,omitempty"`
	Uns    bool               `json:"unsigned,omitempty"`
	Elem   *goType            `json:"elem,omitempty"`
	Fields map[string]*goType `json:"fields,omitempty"`
}

var unmarshalers = map[reflect.Type]string{
	reflect.TypeOf(metav1.Duration{}):            "duration",
	reflect.TypeOf(metav1.Time{}):                "time",
	reflect.TypeOf(resource.Quantity{}):          "quantity",
	reflect.TypeOf(resource.QuantityValue{}):     "quantity",
	reflect.TypeOf(logsapi.TimeOrMetaDuration{}): "timeOrDuration",
}

func typeOf(t reflect.Type) *goType {
	ptr := false
	if t.Kind() == reflect.Pointer {
		ptr, t = true, t.Elem()
	}
	g := &goType{Ptr: ptr}
	if k, ok := unmarshalers[t]; ok {
		g.K = k
		return g
	}
	switch t.Kind() {
	case reflect.String:
		g.K = "string"
	case reflect.Bool:
		g.K = "bool"
	case reflect.Float32, reflect.Float64:
		g.K = "float"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		g.K, g.Bits = "int", t.Bits()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		g.K, g.Bits, g.Uns = "int", t.Bits(), true
	case reflect.Map:
		g.K, g.Elem = "map", typeOf(t.Elem())
	case reflect.Slice:
		g.K, g.Elem = "slice", typeOf(t.Elem())
	case reflect.Struct:
		g.K, g.Fields = "struct", map[string]*goType{}
		addFields(t, g.Fields)
	default:
		g.K = "other:" + t.String()
	}
	return g
}

// addFields adds a struct's JSON fields: the tag's name, or the Go name; an embedded struct without a
// name in its tag has its fields promoted (encoding/json's rule).
func addFields(t reflect.Type, into map[string]*goType) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name := strings.Split(tag, ",")[0]
		if name == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			addFields(f.Type, into)
			continue
		}
		if name == "" {
			name = f.Name
		}
		into[name] = typeOf(f.Type)
	}
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
	if os.Args[1] == "types" {
		b, _ := json.Marshal(typeOf(reflect.TypeOf(kubeletv1beta1.KubeletConfiguration{})))
		out, _ := json.Marshal([]answer{{OK: true, JSON: b}})
		os.Stdout.Write(out)
		return
	}
	f := map[string]func(string) answer{"decode": decode, "quantity": quantity, "duration": duration}[os.Args[1]]
	if f == nil {
		fmt.Fprintln(os.Stderr, errors.New("unknown mode "+os.Args[1]))
		os.Exit(2)
	}
	out := make([]answer, len(items))
	for i, s := range items {
		// ParseQuantity does not return for some inputs (an exponent that wraps the int32 scale far enough makes
		// it round a number of 2^31 digits): stop with the input rather than hang the test run.
		watchdog := time.AfterFunc(10*time.Second, func() {
			fmt.Fprintf(os.Stderr, "%s did not return within 10 s for input %q\n", os.Args[1], s)
			os.Exit(3)
		})
		out[i] = f(s)
		watchdog.Stop()
	}
	b, _ := json.Marshal(out)
	os.Stdout.Write(b)
}
