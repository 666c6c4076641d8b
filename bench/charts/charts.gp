# Drawn by graphgc-bench --plot; rerun with `gnuplot charts.gp` in this directory.
term = strstrt(GPVAL_TERMINALS, "pngcairo") > 0 ? "pngcairo enhanced font 'sans,10'" : "png enhanced"
set logscale xy
set grid xtics ytics mxtics mytics lc rgb '#e0e0e0'
set autoscale xfix
set format x '10^{%L}'
set xlabel 'n (steps)'

set terminal @term size 1000,720
set output "memory_chain.png"
set title "chain: peak memory against n\na = Mul(a, a) on 10000 doubles (80 000 B per value)" noenhanced
set ylabel 'bytes'
set format y '%.0s %cB'
set key below horizontal maxcols 3
plot "chain.dat" index 0 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#d62728' title "keep-all: peak value bytes" noenhanced, \
     "chain.dat" index 0 using 1:3 with linespoints lw 2 dt 2 pt 6 lc rgb '#d62728' title "keep-all: peak RSS" noenhanced, \
     "chain.dat" index 1 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#1f77b4' title "collect-each-step: peak value bytes" noenhanced, \
     "chain.dat" index 1 using 1:3 with linespoints lw 2 dt 2 pt 6 lc rgb '#1f77b4' title "collect-each-step: peak RSS" noenhanced, \
     "chain.dat" index 2 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#2ca02c' title "automatic: peak value bytes" noenhanced, \
     "chain.dat" index 2 using 1:3 with linespoints lw 2 dt 2 pt 6 lc rgb '#2ca02c' title "automatic: peak RSS" noenhanced, \
     "chain.dat" index 2 using 1:5 with linespoints lw 2 dt 3 pt 0 lc rgb '#7f7f7f' title "arena bytes (nodes and vars, any mode)" noenhanced

set terminal @term size 1540,520
set output "time_chain.png"
set ylabel 'ns per op'
set format y '10^{%L}'
set key inside left top vertical
set multiplot layout 1,3 title "chain: ns per op against n (a = Mul(a, a) on 10000 doubles (80 000 B per value))" noenhanced
set title "keep-all" noenhanced
plot "chain.dat" index 0 using 1:6 with linespoints lw 2 dt 1 pt 7 lc rgb '#444444' title "build" noenhanced, \
     "chain.dat" index 0 using 1:7 with linespoints lw 2 dt 3 pt 5 lc rgb '#9467bd' title "propagation" noenhanced, \
     "chain.dat" index 0 using 1:9 with linespoints lw 2 dt 4 pt 13 lc rgb '#ff7f0e' title "export" noenhanced
set title "collect-each-step" noenhanced
plot "chain.dat" index 1 using 1:6 with linespoints lw 2 dt 1 pt 7 lc rgb '#444444' title "build" noenhanced, \
     "chain.dat" index 1 using 1:7 with linespoints lw 2 dt 3 pt 5 lc rgb '#9467bd' title "propagation" noenhanced, \
     "chain.dat" index 1 using 1:8 with linespoints lw 2 dt 2 pt 9 lc rgb '#1f77b4' title "collect" noenhanced, \
     "chain.dat" index 1 using 1:9 with linespoints lw 2 dt 4 pt 13 lc rgb '#ff7f0e' title "export" noenhanced
set title "automatic" noenhanced
plot "chain.dat" index 2 using 1:6 with linespoints lw 2 dt 1 pt 7 lc rgb '#444444' title "build" noenhanced, \
     "chain.dat" index 2 using 1:7 with linespoints lw 2 dt 3 pt 5 lc rgb '#9467bd' title "propagation" noenhanced, \
     "chain.dat" index 2 using 1:9 with linespoints lw 2 dt 4 pt 13 lc rgb '#ff7f0e' title "export" noenhanced
unset multiplot

set terminal @term size 1000,720
set output "memory_fanout.png"
set title "fanout: peak memory against n\ny = Add(c, one), c a constant float[262144] (1 MiB per value); the previous y dropped" noenhanced
set ylabel 'bytes'
set format y '%.0s %cB'
set key below horizontal maxcols 3
plot "fanout.dat" index 0 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#d62728' title "keep-all: peak value bytes" noenhanced, \
     "fanout.dat" index 0 using 1:3 with linespoints lw 2 dt 2 pt 6 lc rgb '#d62728' title "keep-all: peak RSS" noenhanced, \
     "fanout.dat" index 1 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#1f77b4' title "collect-each-step: peak value bytes" noenhanced, \
     "fanout.dat" index 1 using 1:3 with linespoints lw 2 dt 2 pt 6 lc rgb '#1f77b4' title "collect-each-step: peak RSS" noenhanced, \
     "fanout.dat" index 2 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#2ca02c' title "automatic: peak value bytes" noenhanced, \
     "fanout.dat" index 2 using 1:3 with linespoints lw 2 dt 2 pt 6 lc rgb '#2ca02c' title "automatic: peak RSS" noenhanced, \
     "fanout.dat" index 2 using 1:5 with linespoints lw 2 dt 3 pt 0 lc rgb '#7f7f7f' title "arena bytes (nodes and vars, any mode)" noenhanced

set terminal @term size 1540,520
set output "time_fanout.png"
set ylabel 'ns per op'
set format y '10^{%L}'
set key inside left top vertical
set multiplot layout 1,3 title "fanout: ns per op against n (y = Add(c, one), c a constant float[262144] (1 MiB per value); the previous y dropped)" noenhanced
set title "keep-all" noenhanced
plot "fanout.dat" index 0 using 1:6 with linespoints lw 2 dt 1 pt 7 lc rgb '#444444' title "build" noenhanced, \
     "fanout.dat" index 0 using 1:7 with linespoints lw 2 dt 3 pt 5 lc rgb '#9467bd' title "propagation" noenhanced, \
     "fanout.dat" index 0 using 1:9 with linespoints lw 2 dt 4 pt 13 lc rgb '#ff7f0e' title "export" noenhanced
set title "collect-each-step" noenhanced
plot "fanout.dat" index 1 using 1:6 with linespoints lw 2 dt 1 pt 7 lc rgb '#444444' title "build" noenhanced, \
     "fanout.dat" index 1 using 1:7 with linespoints lw 2 dt 3 pt 5 lc rgb '#9467bd' title "propagation" noenhanced, \
     "fanout.dat" index 1 using 1:8 with linespoints lw 2 dt 2 pt 9 lc rgb '#1f77b4' title "collect" noenhanced, \
     "fanout.dat" index 1 using 1:9 with linespoints lw 2 dt 4 pt 13 lc rgb '#ff7f0e' title "export" noenhanced
set title "automatic" noenhanced
plot "fanout.dat" index 2 using 1:6 with linespoints lw 2 dt 1 pt 7 lc rgb '#444444' title "build" noenhanced, \
     "fanout.dat" index 2 using 1:7 with linespoints lw 2 dt 3 pt 5 lc rgb '#9467bd' title "propagation" noenhanced, \
     "fanout.dat" index 2 using 1:9 with linespoints lw 2 dt 4 pt 13 lc rgb '#ff7f0e' title "export" noenhanced
unset multiplot

set terminal @term size 1000,720
set output "memory_mlp.png"
set title "mlp: peak memory against n\none layer x = Relu(Add(MatMul(x, W), b)), x float[16, 256], W and b shared; n = layers" noenhanced
set ylabel 'bytes'
set format y '%.0s %cB'
set key below horizontal maxcols 3
plot "mlp.dat" index 0 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#d62728' title "keep-all: peak value bytes" noenhanced, \
     "mlp.dat" index 0 using 1:3 with linespoints lw 2 dt 2 pt 6 lc rgb '#d62728' title "keep-all: peak RSS" noenhanced, \
     "mlp.dat" index 1 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#1f77b4' title "collect-each-step: peak value bytes" noenhanced, \
     "mlp.dat" index 1 using 1:3 with linespoints lw 2 dt 2 pt 6 lc rgb '#1f77b4' title "collect-each-step: peak RSS" noenhanced, \
     "mlp.dat" index 2 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#2ca02c' title "automatic: peak value bytes" noenhanced, \
     "mlp.dat" index 2 using 1:3 with linespoints lw 2 dt 2 pt 6 lc rgb '#2ca02c' title "automatic: peak RSS" noenhanced, \
     "mlp.dat" index 2 using 1:5 with linespoints lw 2 dt 3 pt 0 lc rgb '#7f7f7f' title "arena bytes (nodes and vars, any mode)" noenhanced

set terminal @term size 1540,520
set output "time_mlp.png"
set ylabel 'ns per op'
set format y '10^{%L}'
set key inside left top vertical
set multiplot layout 1,3 title "mlp: ns per op against n (one layer x = Relu(Add(MatMul(x, W), b)), x float[16, 256], W and b shared; n = layers)" noenhanced
set title "keep-all" noenhanced
plot "mlp.dat" index 0 using 1:6 with linespoints lw 2 dt 1 pt 7 lc rgb '#444444' title "build" noenhanced, \
     "mlp.dat" index 0 using 1:7 with linespoints lw 2 dt 3 pt 5 lc rgb '#9467bd' title "propagation" noenhanced, \
     "mlp.dat" index 0 using 1:9 with linespoints lw 2 dt 4 pt 13 lc rgb '#ff7f0e' title "export" noenhanced
set title "collect-each-step" noenhanced
plot "mlp.dat" index 1 using 1:6 with linespoints lw 2 dt 1 pt 7 lc rgb '#444444' title "build" noenhanced, \
     "mlp.dat" index 1 using 1:7 with linespoints lw 2 dt 3 pt 5 lc rgb '#9467bd' title "propagation" noenhanced, \
     "mlp.dat" index 1 using 1:8 with linespoints lw 2 dt 2 pt 9 lc rgb '#1f77b4' title "collect" noenhanced, \
     "mlp.dat" index 1 using 1:9 with linespoints lw 2 dt 4 pt 13 lc rgb '#ff7f0e' title "export" noenhanced
set title "automatic" noenhanced
plot "mlp.dat" index 2 using 1:6 with linespoints lw 2 dt 1 pt 7 lc rgb '#444444' title "build" noenhanced, \
     "mlp.dat" index 2 using 1:7 with linespoints lw 2 dt 3 pt 5 lc rgb '#9467bd' title "propagation" noenhanced, \
     "mlp.dat" index 2 using 1:9 with linespoints lw 2 dt 4 pt 13 lc rgb '#ff7f0e' title "export" noenhanced
unset multiplot

set terminal @term size 1000,720
set output "memory_shapes.png"
set title "shapes: peak memory against n\ns = Shape(x); x = Reshape(x, Concat(Gather(s, [1, 2]), Gather(s, [0]))), x an argument float[2, 3, 5]" noenhanced
set ylabel 'bytes'
set format y '%.0s %cB'
set key below horizontal maxcols 3
plot "shapes.dat" index 0 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#d62728' title "keep-all: peak value bytes" noenhanced, \
     "shapes.dat" index 0 using 1:3 with linespoints lw 2 dt 2 pt 6 lc rgb '#d62728' title "keep-all: peak RSS" noenhanced, \
     "shapes.dat" index 1 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#1f77b4' title "collect-each-step: peak value bytes" noenhanced, \
     "shapes.dat" index 1 using 1:3 with linespoints lw 2 dt 2 pt 6 lc rgb '#1f77b4' title "collect-each-step: peak RSS" noenhanced, \
     "shapes.dat" index 2 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#2ca02c' title "automatic: peak value bytes" noenhanced, \
     "shapes.dat" index 2 using 1:3 with linespoints lw 2 dt 2 pt 6 lc rgb '#2ca02c' title "automatic: peak RSS" noenhanced, \
     "shapes.dat" index 2 using 1:5 with linespoints lw 2 dt 3 pt 0 lc rgb '#7f7f7f' title "arena bytes (nodes and vars, any mode)" noenhanced

set terminal @term size 1540,520
set output "time_shapes.png"
set ylabel 'ns per op'
set format y '10^{%L}'
set key inside left top vertical
set multiplot layout 1,3 title "shapes: ns per op against n (s = Shape(x); x = Reshape(x, Concat(Gather(s, [1, 2]), Gather(s, [0]))), x an argument float[2, 3, 5])" noenhanced
set title "keep-all" noenhanced
plot "shapes.dat" index 0 using 1:6 with linespoints lw 2 dt 1 pt 7 lc rgb '#444444' title "build" noenhanced, \
     "shapes.dat" index 0 using 1:7 with linespoints lw 2 dt 3 pt 5 lc rgb '#9467bd' title "propagation" noenhanced, \
     "shapes.dat" index 0 using 1:9 with linespoints lw 2 dt 4 pt 13 lc rgb '#ff7f0e' title "export" noenhanced
set title "collect-each-step" noenhanced
plot "shapes.dat" index 1 using 1:6 with linespoints lw 2 dt 1 pt 7 lc rgb '#444444' title "build" noenhanced, \
     "shapes.dat" index 1 using 1:7 with linespoints lw 2 dt 3 pt 5 lc rgb '#9467bd' title "propagation" noenhanced, \
     "shapes.dat" index 1 using 1:8 with linespoints lw 2 dt 2 pt 9 lc rgb '#1f77b4' title "collect" noenhanced, \
     "shapes.dat" index 1 using 1:9 with linespoints lw 2 dt 4 pt 13 lc rgb '#ff7f0e' title "export" noenhanced
set title "automatic" noenhanced
plot "shapes.dat" index 2 using 1:6 with linespoints lw 2 dt 1 pt 7 lc rgb '#444444' title "build" noenhanced, \
     "shapes.dat" index 2 using 1:7 with linespoints lw 2 dt 3 pt 5 lc rgb '#9467bd' title "propagation" noenhanced, \
     "shapes.dat" index 2 using 1:9 with linespoints lw 2 dt 4 pt 13 lc rgb '#ff7f0e' title "export" noenhanced
unset multiplot

set terminal @term size 1000,720
set output "boundary.png"
set title 'boundary: ns per node against n (a chain of n Adds over float[64] arguments)' noenhanced
set xlabel 'n (nodes)'
set ylabel 'ns per node'
set format y '%g'
set key below horizontal maxcols 3
plot "boundary.dat" using 1:3 with linespoints lw 2 dt 1 pt 7 lc rgb '#1f77b4' title "to_onnx" noenhanced, \
     "boundary.dat" using 1:4 with linespoints lw 2 dt 2 pt 6 lc rgb '#1f77b4' title "SerializeToString (protobuf)" noenhanced, \
     "boundary.dat" using 1:5 with linespoints lw 2 dt 4 pt 9 lc rgb '#2ca02c' title "to_onnx_bytes" noenhanced, \
     "boundary.dat" using 1:6 with linespoints lw 2 dt 1 pt 5 lc rgb '#ff7f0e' title "inline_model" noenhanced, \
     "boundary.dat" using 1:7 with linespoints lw 2 dt 2 pt 4 lc rgb '#ff7f0e' title "InferShapes (ONNX)" noenhanced, \
     "boundary.dat" using 1:2 with linespoints lw 2 dt 3 pt 1 lc rgb '#444444' title "build (op::Add)" noenhanced
