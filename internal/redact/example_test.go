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

// A value cut in a message, escaped, or quoted in part by a library is
// redacted too: any piece of Piece bytes of any of its forms.
func ExampleSet_String_pieces() {
	var s redact.Set
	s.Add(`tok-"app"-0123456789-abcdefghij-klmnopqrstuvwxyz`)
	s.Add("pin = 31337e99999\n")
	fmt.Println(s.String(`name: "tok-\"app\"-0123456789-abcdefghij-klm…"`))
	fmt.Println(s.String(`strconv.ParseFloat: parsing "31337e99999": value out of range`))
	fmt.Println(s.String(`a piece shorter than 8 bytes stays: tok-"ap`))
	// Output:
	// name: "<redacted>…"
	// strconv.ParseFloat: parsing "<redacted>": value out of range
	// a piece shorter than 8 bytes stays: tok-"ap
}
