package fnrun

// TakenBy is takenBy, for the test that keeps it in step with the
// functions' Kinds.
var TakenBy = takenBy
