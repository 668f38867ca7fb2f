
	
aNoOp
7
bNoOp*,
$osc]0;PWNEDtitlebidi‮evil⁦x⁩zz"