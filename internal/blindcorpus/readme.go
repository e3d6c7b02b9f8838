package main

func readme(docs []*Doc) string { return "" }
