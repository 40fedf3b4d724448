module github.com/kafkalive/kafkalive/exercises

go 1.26

require github.com/kafkalive/kafkalive v0.0.0

replace github.com/kafkalive/kafkalive => ../
