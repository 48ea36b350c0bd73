module matrixadapter

go 1.19
