¿
"serve_
5

tf_examplePlaceholder*
dtype0*
shape:
"
xIdentity
tf_example*
T0"*S
clsL

inputs
tf_example:0
out
x:0tensorflow/serving/predict