

startfin

inPlaceholder*
dtype04
2

f
x
y
againfx"
y	again:y:0"