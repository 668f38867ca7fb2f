
$
startPartitionedCall*

fR
fƒ
O

f
x
y&
callPartitionedCallx*

fR
g"
ycall:output:0
0

g
x
y
callfx"
ycall:y:0"