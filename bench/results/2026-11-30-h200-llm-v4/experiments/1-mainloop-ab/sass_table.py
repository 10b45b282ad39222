# Condense an "ncu --page source --print-source sass --csv" export: per SASS line, the
# stall samples, the warp-level executions and the two largest stall reasons.
# usage: python3 sass_table.py FILE.csv [first_row last_row]
import csv,sys
rows=list(csv.reader(open(sys.argv[1])))
hdr=rows[1]; data=rows[2:]
i_src=hdr.index("Source"); i_s=hdr.index("Warp Stall Sampling (All Samples)"); i_e=hdr.index("Instructions Executed")
stall_cols=[i for i,h in enumerate(hdr) if h.startswith("stall_") and "Not Issued" not in h]
tot=sum(int(r[i_s] or 0) for r in data); ti=sum(int(r[i_e] or 0) for r in data)
print("total samples",tot,"instructions",ti)
lo=int(sys.argv[2]) if len(sys.argv)>2 else 0; hi=int(sys.argv[3]) if len(sys.argv)>3 else len(data)
for n,r in enumerate(data):
  if n<lo or n>=hi: continue
  s=int(r[i_s] or 0); e=int(r[i_e] or 0)
  top=sorted(((int(r[i] or 0),hdr[i][6:]) for i in stall_cols),reverse=True)[:2]
  tops=" ".join(f"{k}:{v}" for v,k in top if v>0)
  print(f"{n:5d} {s:5d} {e:9d} {r[i_src].strip()[:90]:90s} {tops}")
