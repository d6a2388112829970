package redact_test

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/internal/redact"
)

func ExampleSet() {
	var s redact.Set
	s.Add("hunter2-very-secret")    // a stringData value
	s.AddBase64("c2VjcmV0LXRva2Vu") // a data value: "secret-token"
	s.Add("on")                     // shorter than MinLen: left alone
	fmt.Println(s.String("v1 Secret hunter2-very-secret/db: did you mean name: c2VjcmV0LXRva2Vu?"))
	fmt.Println(s.String("data.token holds secret-token, which is on"))
	// Output:
	// v1 Secret <redacted>/db: did you mean name: <redacted>?
	// data.token holds <redacted>, which is on
}
