
	
aNoOp"
2
b