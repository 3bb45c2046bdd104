"""Shared fakes and fixtures of the end-to-end tests, one module per kind (as git's
t/lib-*.sh): a test imports them as `from lib import fakehttp`, never from another test file.

- launch: the ready line the emulator and the real clusters print, and starting and stopping
  a cluster whose ready line goes to a file (real.start, secure.start);
- fakehttp: loopback HTTP servers a test scripts itself (a route table, an endless scanner);
- forward: a forwarding proxy in front of a real server that lands a fault at a request;
- tlsca: a CA and a server certificate made with openssl at test time;
- rows: rows written into the emulator's tables;
- createbase, faultmatrix, metalisting: the bases and helpers several files of one
  behaviour share (create, the fault matrices, hbase:meta read in ranges);
- htmlpage: an HTML page rendered and read back; krbrealm: a throw-away Kerberos realm.
"""
