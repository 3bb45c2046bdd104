package org.hbtab.realhbase;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.rest.RESTServer;
import org.apache.hadoop.hbase.rest.RESTServlet;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.JVMClusterUtil.RegionServerThread;
import org.apache.hadoop.hbase.util.VersionInfo;
import org.apache.hbase.thirdparty.com.google.gson.JsonArray;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.gson.JsonParser;

/**
 * One JVM holding real HBase for hbtab's tests: ZooKeeper and a mini HBase cluster (master and
 * region servers, data on the local filesystem, no HDFS), HBase's REST gateway and its Thrift2
 * server in HTTP mode, each on a free loopback port, and a control channel.
 *
 * <p>stdout carries exactly one line, once everything listens: {@code HBEMU-READY {"rest": P,
 * "thrift": P, "control": P, "zk": P, "pid": N, "version": "2.6.1"}}, the shape of the
 * emulator's ready line. Everything else (HBase's logs, WARN and up unless HBTAB_REAL_LOG names
 * another level) goes to stderr. The process ends when stdin closes (or, with {@code
 * --watch-pid PID}, when that process ends), on SIGTERM/SIGINT, or on {@code POST
 * /control/shutdown}.
 *
 * <p>Control channel (JSON over HTTP on the control port; errors answer 4xx/5xx with
 * {"error": text}):
 *
 * <ul>
 *   <li>{@code POST /control/server {"index": i, "state": "stop"|"start"}}: stop region server
 *       i (0-based, the order they started in) and wait until its regions are open elsewhere,
 *       or start a new one in its slot and wait until the master counts it.
 *   <li>{@code POST /control/disable {"table"}}, {@code /control/enable {"table"}}.
 *   <li>{@code POST /control/unassign {"table", "index": i}}: close region i (in key order).
 *   <li>{@code POST /control/assign {"table", "index": i}}.
 *   <li>{@code POST /control/create {"table", "families": ["f", ...], "splits": ["b64", ...]}}:
 *       Admin.createTable, the way a table hbtab did not create comes to be ({@code
 *       "replicas": n}: REGION_REPLICATION n).
 *   <li>{@code POST /control/split {"table", "key": b64}}: split the region holding key at key
 *       (Admin.splitRegionAsync) and wait until its daughters are open; the parent stays in
 *       hbase:meta, offline and split, until the CatalogJanitor's next run (5 minutes).
 *   <li>{@code POST /control/put {"table", "rows": [{"key": b64, "cells": [{"column": b64
 *       "f:q", "value": b64}]}]}}: bulk write through the Java client.
 *   <li>{@code POST /control/readonly {"on": bool}}: restart the REST gateway (same port) with
 *       {@code hbase.rest.readonly} set as asked.
 *   <li>{@code GET /control/servers}: {"live": n, "slots": [server name or null, ...]}.
 *   <li>{@code POST /control/metarows {"table", "splits": ["b64", ...]}}: region rows written
 *       straight into hbase:meta, for listings of more regions than the cluster could open
 *       (see {@link #metaRows}); answers {"rows": n, "deleted": n, "region_id": id}.
 *   <li>{@code POST /control/metarows {"table", "restore": true}}: the table's region rows as
 *       they were before (see {@link #metaRowsRestore}); answers {"rows": n, "deleted": n}.
 * </ul>
 *
 * <p>Faults HBase itself suffers (see {@link #fault}). Each answers once the cluster is whole
 * again (regions open, master active, server listening) with {"ms": time taken}; with {@code
 * "delay_ms": n} it answers at once ({"scheduled": id}) and runs n ms later on a thread of its
 * own, one fault at a time, and {@code POST /control/faults} answers {"pending": n, "done": n,
 * "errors": [text, ...]} ({@code {"wait": true}}: once none is pending).
 *
 * <ul>
 *   <li>{@code POST /control/abort {"index": i}}: abort region server i (as a server that hits
 *       a fatal error does: no region closed, the master's ServerCrashProcedure splits its WAL
 *       and reopens them elsewhere), wait until its regions are open again, then start a new
 *       server in its slot.
 *   <li>{@code POST /control/expire {"index": i}}: expire region server i's ZooKeeper session
 *       (HBaseTestingUtility.expireRegionServerSession); the server aborts itself on it, the
 *       rest as abort.
 *   <li>{@code POST /control/master {}}: kill the active master (abort), start a new one and
 *       wait until it is active and initialized (its procedures taken over from the store).
 *   <li>{@code POST /control/rest {}}: restart the REST gateway on the same port, read-only as
 *       it was; answers {"rest": port} too.
 *   <li>{@code POST /control/thrift {}}: restart the Thrift2 server on the same port.
 * </ul>
 */
public final class RealHBase {
  private static final long WAIT_MS = 120_000;

  private final HBaseTestingUtility util;
  private final Configuration conf;
  private MiniHBaseCluster cluster;
  private final List<ServerName> slots = new ArrayList<>();
  /** Every region server the control channel has stopped, aborted or expired. */
  private final List<ServerName> crashed = new ArrayList<>();

  /** What {@link #metaRows} changed in hbase:meta for one table, for its restore. */
  private static final class Written {
    final List<Put> deleted = new ArrayList<>(); // the table's real region rows, cell by cell
    final List<byte[]> made = new ArrayList<>(); // the names of the rows written
  }

  private final Map<TableName, Written> written = new HashMap<>();
  private Boolean balancerBefore; // the balancer's switch before the first metarows, if any
  private RESTServer rest;
  private int restPort;
  private boolean restReadOnly; // as the gateway was last started
  private org.apache.hadoop.hbase.thrift2.ThriftServer thrift;
  private int thriftPort;
  private HttpServer control;
  private Secure secure; // run --secure: Kerberos, the AccessController, SPNEGO and TLS

  private RealHBase(int servers) {
    conf = org.apache.hadoop.hbase.HBaseConfiguration.create();
    // Quiet and small: no web UIs, few handlers, quick retries for the tests' clients.
    conf.setInt("hbase.master.info.port", -1);
    conf.setInt("hbase.regionserver.info.port", -1);
    conf.setInt("hbase.regionserver.handler.count", 8);
    conf.setInt("hbase.master.handler.count", 8);
    conf.setInt("hbase.client.retries.number", 6);
    conf.setInt("hbase.client.pause", 100);
    conf.setBoolean("hbase.table.sanity.checks", true);
    // Servers are stopped gracefully (they leave ZooKeeper themselves), so a long session
    // only keeps a JVM starved by a loaded machine from losing a server by accident; the
    // mini ZooKeeper caps sessions at 20 ticks of 2 s.
    conf.setInt("zookeeper.session.timeout", 40_000);
    // A compaction's replaced files (a merged region's references to its parents among them)
    // leave the store when the region server's discharger chore runs: every 2 min by default,
    // every second here. Until then the CatalogJanitor keeps the merge qualifiers in meta and
    // HBase refuses a further merge; its own 5 min interval is left as it is, so a region
    // merged moments ago stays blocked until someone runs catalogjanitor_run (README.md).
    conf.setInt("hbase.hfile.compaction.discharger.interval", 1000);
    // A region server whose abort outlasts hbase.regionserver.abort.timeout runs this task;
    // HBase's default (SystemExitWhenAbortTimeout) halts the process, here the JVM that
    // holds every server. Seen on a loaded machine after an expired ZooKeeper session: the
    // whole cluster went with the one server. Logged instead.
    conf.set("hbase.regionserver.abort.timeout.task", AbortTimeoutLogged.class.getName());
    util = new HBaseTestingUtility(conf);
    this.servers = servers;
  }

  private final int servers;

  /** Run when a region server's abort takes too long: said, the JVM left running. */
  public static final class AbortTimeoutLogged extends java.util.TimerTask {
    @Override
    public void run() {
      System.err.println("a region server's abort outlasted hbase.regionserver.abort.timeout");
    }
  }

  private void start() throws Exception {
    if (secure != null) {
      secure.startKdc();
      secure.configure(util.getConfiguration());
    }
    util.startMiniZKCluster();
    cluster =
        util.startMiniHBaseCluster(
            StartMiniClusterOption.builder().numMasters(1).numRegionServers(servers).build());
    for (RegionServerThread t : cluster.getRegionServerThreads()) {
      slots.add(t.getRegionServer().getServerName());
    }
    util.waitUntilNoRegionsInTransition(WAIT_MS);
    if (secure != null) {
      util.waitTableAvailable(Secure.ACL, WAIT_MS);
      try {
        secure.grant(util.getConnection());
      } catch (Throwable t) {
        throw new IOException("the grants failed", t);
      }
    }
    restPort = freePort();
    startRest(false);
    thriftPort = freePort();
    startThrift();
    startControl();
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private void startRest(boolean readOnly) throws Exception {
    Configuration c = new Configuration(util.getConfiguration());
    c.setInt("hbase.rest.port", restPort);
    c.set("hbase.rest.host", "127.0.0.1");
    c.setInt("hbase.rest.info.port", -1);
    c.setBoolean(RESTServer.SKIP_LOGIN_KEY, true);
    c.setBoolean("hbase.rest.readonly", readOnly);
    restReadOnly = readOnly;
    if (secure != null) {
      secure.rest(c);
      rest = secure.asRest(() -> {
        RESTServer r = new RESTServer(c);
        r.run();
        return r;
      });
    } else {
      rest = new RESTServer(c);
      rest.run();
    }
    restPort = rest.getPort();
  }

  private synchronized void restartRest(boolean readOnly) throws Exception {
    rest.stop();
    RESTServlet.stop();
    Exception last = null;
    for (int i = 0; i < 50; i++) {
      try {
        startRest(readOnly);
        return;
      } catch (Exception e) { // the port may linger a moment after the stop
        last = e;
        Thread.sleep(100);
      }
    }
    throw last;
  }

  private void startThrift() throws Exception {
    Configuration c = new Configuration(util.getConfiguration());
    c.setBoolean("hbase.regionserver.thrift.http", true);
    c.setInt("hbase.regionserver.thrift.port", thriftPort);
    c.set("hbase.regionserver.thrift.ipaddress", "127.0.0.1");
    c.setInt("hbase.thrift.info.port", -1);
    if (secure != null) {
      secure.thrift(c);
    }
    thrift = new org.apache.hadoop.hbase.thrift2.ThriftServer(c);
    Thread t =
        new Thread(
            () -> {
              try {
                thrift.run(); // blocks while Jetty serves; run() keeps the conf's settings
              } catch (Exception e) {
                e.printStackTrace();
              }
            },
            "thrift2");
    t.setDaemon(true);
    t.start();
    long until = System.currentTimeMillis() + WAIT_MS;
    while (System.currentTimeMillis() < until) {
      try (java.net.Socket s = new java.net.Socket(InetAddress.getLoopbackAddress(), thriftPort)) {
        return;
      } catch (IOException e) {
        Thread.sleep(50);
      }
    }
    throw new IOException("the Thrift2 server did not listen on " + thriftPort);
  }

  private void startControl() throws IOException {
    control = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    control.setExecutor(Executors.newFixedThreadPool(4));
    control.createContext("/control/", this::handle);
    control.start();
  }

  private void handle(HttpExchange ex) throws IOException {
    String path = ex.getRequestURI().getPath();
    int status = 200;
    String answer;
    try {
      JsonObject in = new JsonObject();
      try (InputStream body = ex.getRequestBody()) {
        String text = new String(body.readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!text.isEmpty()) {
          in = JsonParser.parseString(text).getAsJsonObject();
        }
      }
      answer = dispatch(path.substring("/control/".length()), in).toString();
    } catch (IllegalArgumentException e) {
      status = 400;
      answer = error(e);
    } catch (Exception e) {
      status = 500;
      answer = error(e);
      e.printStackTrace();
    }
    byte[] out = answer.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(status, out.length);
    try (OutputStream os = ex.getResponseBody()) {
      os.write(out);
    }
  }

  private static String error(Exception e) {
    JsonObject o = new JsonObject();
    o.addProperty("error", e.getClass().getSimpleName() + ": " + e.getMessage());
    return o.toString();
  }

  private JsonObject dispatch(String verb, JsonObject in) throws Exception {
    JsonObject out = new JsonObject();
    switch (verb) {
      case "server":
        server(in.get("index").getAsInt(), in.get("state").getAsString());
        break;
      case "servers":
        out.addProperty("live", cluster.getLiveRegionServerThreads().size());
        JsonArray a = new JsonArray();
        for (ServerName sn : slots) {
          a.add(sn == null ? null : sn.toString());
        }
        out.add("slots", a);
        break;
      case "disable":
        admin().disableTable(table(in));
        break;
      case "enable":
        admin().enableTable(table(in));
        break;
      case "unassign":
        admin().unassign(region(in).getRegionName());
        util.waitUntilNoRegionsInTransition(WAIT_MS);
        break;
      case "assign":
        admin().assign(region(in).getRegionName());
        util.waitUntilNoRegionsInTransition(WAIT_MS);
        break;
      case "create":
        create(in);
        break;
      case "put":
        put(in);
        break;
      case "split":
        split(in);
        break;
      case "metarows":
        synchronized (this) {
          if (in.has("restore") && in.get("restore").getAsBoolean()) {
            metaRowsRestore(in, out);
          } else {
            metaRows(in, out);
          }
        }
        break;
      case "readonly":
        restartRest(in.get("on").getAsBoolean());
        out.addProperty("rest", restPort);
        break;
      case "shutdown":
        new Thread(() -> System.exit(0)).start();
        break;
      case "abort":
      case "expire":
      case "master":
      case "rest":
      case "thrift":
        fault(verb, in, out);
        break;
      case "faults":
        faults(in, out);
        break;
      default:
        throw new IllegalArgumentException("unknown control verb " + verb);
    }
    return out;
  }

  private Admin admin() throws IOException {
    return util.getAdmin();
  }

  private static TableName table(JsonObject in) {
    if (!in.has("table")) {
      throw new IllegalArgumentException("no table");
    }
    return TableName.valueOf(in.get("table").getAsString());
  }

  private RegionInfo region(JsonObject in) throws IOException {
    List<RegionInfo> regions = new ArrayList<>(admin().getRegions(table(in)));
    regions.sort(RegionInfo.COMPARATOR);
    int i = in.get("index").getAsInt();
    if (i < 0 || i >= regions.size()) {
      throw new IllegalArgumentException("no region " + i + " (" + regions.size() + " regions)");
    }
    return regions.get(i);
  }

  private synchronized void server(int index, String state) throws Exception {
    if (index < 0 || index >= slots.size()) {
      throw new IllegalArgumentException("no region server slot " + index);
    }
    if (state.equals("stop")) {
      ServerName sn = slots.get(index);
      if (sn == null) {
        return;
      }
      cluster.stopRegionServer(sn);
      gone(index, sn);
    } else if (state.equals("start")) {
      if (slots.get(index) != null) {
        return;
      }
      RegionServerThread t = cluster.startRegionServerAndWait(WAIT_MS);
      ServerName sn = t.getRegionServer().getServerName();
      slots.set(index, sn);
      long until = System.currentTimeMillis() + WAIT_MS;
      while (!admin().getClusterMetrics().getLiveServerMetrics().containsKey(sn)
          && System.currentTimeMillis() < until) {
        Thread.sleep(50);
      }
      util.waitUntilNoRegionsInTransition(WAIT_MS);
    } else {
      throw new IllegalArgumentException("state must be stop or start");
    }
  }

  private final java.util.concurrent.ExecutorService faultRunner =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "fault");
            t.setDaemon(true);
            return t;
          });
  private int faultsPending, faultsDone, faultsScheduled;
  private final List<String> faultErrors = new ArrayList<>();

  /**
   * A fault HBase itself can suffer (the verbs abort, expire, master, rest, thrift), now or,
   * with "delay_ms", that many ms from now on the fault thread.
   */
  private void fault(String verb, JsonObject in, JsonObject out) throws Exception {
    int index = in.has("index") ? in.get("index").getAsInt() : 0;
    if ((verb.equals("abort") || verb.equals("expire")) && (index < 0 || index >= slots.size())) {
      throw new IllegalArgumentException("no region server slot " + index);
    }
    if (!in.has("delay_ms")) {
      long t0 = System.nanoTime();
      runFault(verb, index);
      out.addProperty("ms", (System.nanoTime() - t0) / 1_000_000);
      if (verb.equals("rest")) {
        out.addProperty("rest", restPort);
      }
      return;
    }
    long delay = in.get("delay_ms").getAsLong();
    int id;
    synchronized (faultErrors) {
      id = ++faultsScheduled;
      faultsPending++;
    }
    faultRunner.submit(
        () -> {
          try {
            Thread.sleep(Math.max(0, delay));
            runFault(verb, index);
          } catch (Exception e) {
            e.printStackTrace();
            synchronized (faultErrors) {
              faultErrors.add(verb + ": " + e);
            }
          } finally {
            synchronized (faultErrors) {
              faultsPending--;
              faultsDone++;
              faultErrors.notifyAll();
            }
          }
        });
    out.addProperty("scheduled", id);
  }

  private void faults(JsonObject in, JsonObject out) throws InterruptedException {
    synchronized (faultErrors) {
      long until = System.currentTimeMillis() + 4 * WAIT_MS;
      while (in.has("wait") && in.get("wait").getAsBoolean() && faultsPending > 0
          && System.currentTimeMillis() < until) {
        faultErrors.wait(1000);
      }
      out.addProperty("pending", faultsPending);
      out.addProperty("done", faultsDone);
      JsonArray e = new JsonArray();
      for (String s : faultErrors) {
        e.add(s);
      }
      out.add("errors", e);
    }
  }

  private void runFault(String verb, int index) throws Exception {
    switch (verb) {
      case "abort":
      case "expire":
        crash(index, verb.equals("expire"));
        break;
      case "master":
        restartMaster();
        break;
      case "rest":
        synchronized (this) {
          restartRest(restReadOnly);
        }
        break;
      case "thrift":
        restartThrift();
        break;
      default:
        throw new IllegalArgumentException("unknown fault " + verb);
    }
  }

  /** Region server {@code index} crashes (aborts, or loses its ZooKeeper session); a new one
   * takes its slot once its regions are open elsewhere. */
  private synchronized void crash(int index, boolean expire) throws Exception {
    ServerName sn = slots.get(index);
    if (sn == null) {
      throw new IllegalArgumentException("region server slot " + index + " is stopped");
    }
    if (expire) {
      int at = -1;
      List<RegionServerThread> threads = cluster.getRegionServerThreads();
      for (int i = 0; i < threads.size(); i++) {
        if (threads.get(i).getRegionServer().getServerName().equals(sn)) {
          at = i;
        }
      }
      util.expireRegionServerSession(at);
    } else {
      cluster.killRegionServer(sn);
    }
    gone(index, sn);
    server(index, "start");
  }

  /** The active master killed (aborted) and a new one started in its place. */
  private synchronized void restartMaster() throws Exception {
    // A fault of its own: a crashed server's processing left from an earlier one would
    // leave the new master waiting for hbase:namespace on the dead server (seen on a loaded
    // machine after an expired session: ServerCrashProcedures=true, startup held)
    settled();
    ServerName sn = cluster.getMaster().getServerName();
    cluster.killMaster(sn);
    cluster.waitForMasterToStop(sn, WAIT_MS);
    cluster.startMaster();
    if (!cluster.waitForActiveAndReadyMaster(HELD_MS)) {
      // HBase 2.6.1 and 2.5: a master started seconds after a region server crashed may find
      // a system region OPEN in meta on that server, no procedure to move it and no WAL
      // directory naming the server, and hold its startup ("Master startup cannot progress,
      // in holding-pattern until region onlined"). An operator's way out is HBCK2's
      // scheduleRecoveries: a crash procedure for each such server, which moves its regions.
      System.err.println("realhbase: the new master is not ready after " + HELD_MS / 1000
          + " s; crash procedures scheduled for " + crashed);
      try (org.apache.hadoop.hbase.client.Hbck hbck = util.getConnection().getHbck()) {
        hbck.scheduleServerCrashProcedures(new ArrayList<>(crashed));
      }
      if (!cluster.waitForActiveAndReadyMaster(WAIT_MS)) {
        throw new IOException("no active master after the restart");
      }
    }
    util.waitUntilNoRegionsInTransition(WAIT_MS);
  }

  /** How long a new master may take before its startup counts as held. */
  private static final long HELD_MS = 30_000;

  /** The Thrift2 server stopped and started again on its port. */
  private synchronized void restartThrift() throws Exception {
    thrift.stop();
    long until = System.currentTimeMillis() + WAIT_MS;
    while (System.currentTimeMillis() < until) { // until the port is free again
      try (ServerSocket s = new ServerSocket()) {
        s.setReuseAddress(true);
        s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), thriftPort));
        break;
      } catch (IOException e) {
        Thread.sleep(100);
      }
    }
    startThrift();
  }

  private void create(JsonObject in) throws IOException {
    TableName name = table(in);
    String ns = name.getNamespaceAsString();
    if (!ns.equals("default") && !ns.equals("hbase")) {
      try {
        admin().getNamespaceDescriptor(ns);
      } catch (org.apache.hadoop.hbase.NamespaceNotFoundException e) {
        admin().createNamespace(NamespaceDescriptor.create(ns).build());
      }
    }
    TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(name);
    for (JsonElement f : in.getAsJsonArray("families")) {
      b.setColumnFamily(ColumnFamilyDescriptorBuilder.of(f.getAsString()));
    }
    if (in.has("replicas")) {
      b.setRegionReplication(in.get("replicas").getAsInt());
    }
    byte[][] splits = null;
    if (in.has("splits")) {
      JsonArray a = in.getAsJsonArray("splits");
      splits = new byte[a.size()][];
      for (int i = 0; i < a.size(); i++) {
        splits[i] = Base64.getDecoder().decode(a.get(i).getAsString());
      }
    }
    if (splits == null || splits.length == 0) {
      admin().createTable(b.build());
    } else {
      admin().createTable(b.build(), splits);
    }
  }

  private void split(JsonObject in) throws Exception {
    TableName name = table(in);
    byte[] key = Base64.getDecoder().decode(in.get("key").getAsString());
    RegionInfo at = null;
    for (RegionInfo r : admin().getRegions(name)) {
      if (r.getReplicaId() == 0 && r.containsRow(key)) {
        at = r;
      }
    }
    if (at == null || Bytes.equals(at.getStartKey(), key)) {
      throw new IllegalArgumentException("no region to split at " + Bytes.toStringBinary(key));
    }
    admin().splitRegionAsync(at.getRegionName(), key)
        .get(WAIT_MS, java.util.concurrent.TimeUnit.MILLISECONDS);
    util.waitUntilNoRegionsInTransition(WAIT_MS);
  }

  private void put(JsonObject in) throws IOException {
    List<Put> puts = new ArrayList<>();
    for (JsonElement r : in.getAsJsonArray("rows")) {
      JsonObject row = r.getAsJsonObject();
      Put p = new Put(Base64.getDecoder().decode(row.get("key").getAsString()));
      for (JsonElement c : row.getAsJsonArray("cells")) {
        JsonObject cell = c.getAsJsonObject();
        byte[] column = Base64.getDecoder().decode(cell.get("column").getAsString());
        int colon = Bytes.indexOf(column, (byte) ':');
        if (colon < 0) {
          throw new IllegalArgumentException("column without ':'");
        }
        p.addColumn(
            Bytes.copy(column, 0, colon),
            Bytes.copy(column, colon + 1, column.length - colon - 1),
            Base64.getDecoder().decode(cell.get("value").getAsString()));
      }
      puts.add(p);
    }
    try (Table t = util.getConnection().getTable(table(in))) {
      t.put(puts);
    }
  }

  /**
   * Region rows for the table written straight into hbase:meta, as the master writes those of
   * an open region: info:regioninfo (RegionInfo.toByteArray, PBUF magic and protobuf),
   * info:server and info:serverstartcode (a live region server, round robin),
   * info:seqnumDuringOpen, info:sn and info:state OPEN. The splits (sorted, the table's own
   * split keys among them) bound the new regions: from the empty key up to the start of the
   * table's last region, which is kept (with the table-state row); every other region row of
   * the table is deleted. No region is opened: the master's assignment state (read from meta at
   * its start) and the region servers know only the table's real regions, so reads and writes
   * of keys below the last region fail, while everything that lists regions from hbase:meta
   * (the REST gateway's /T/regions, scans of hbase:meta) sees them all. The CatalogJanitor and
   * the hbck chore only report what they find; the balancer is switched off so that the master
   * moves no real region and rewrites no row. hbase:meta is flushed at the end.
   */
  private void metaRows(JsonObject in, JsonObject out) throws IOException {
    TableName name = table(in);
    JsonArray a = in.getAsJsonArray("splits");
    List<RegionInfo> real = new ArrayList<>(admin().getRegions(name));
    real.sort(RegionInfo.COMPARATOR);
    RegionInfo last = real.get(real.size() - 1);
    if (a == null || a.size() == 0) {
      throw new IllegalArgumentException("no splits");
    }
    byte[][] keys = new byte[a.size()][];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = Base64.getDecoder().decode(a.get(i).getAsString());
      if (keys[i].length == 0 || (i > 0 && Bytes.compareTo(keys[i - 1], keys[i]) >= 0)) {
        throw new IllegalArgumentException("splits must be non-empty and rise");
      }
    }
    if (!Bytes.equals(keys[keys.length - 1], last.getStartKey())) {
      throw new IllegalArgumentException(
          "the last split must be the start of the table's last region, "
              + Bytes.toStringBinary(last.getStartKey()));
    }
    if (written.containsKey(name)) {
      throw new IllegalArgumentException("region rows already written for " + name);
    }
    Written w = new Written();
    boolean was = admin().balancerSwitch(false, true);
    if (balancerBefore == null) {
      balancerBefore = was;
    }
    List<ServerName> live =
        new ArrayList<>(admin().getClusterMetrics().getLiveServerMetrics().keySet());
    live.sort(null);
    byte[] info = org.apache.hadoop.hbase.HConstants.CATALOG_FAMILY;
    byte[] open = Bytes.toBytes("OPEN");
    // an id of their own: no name equals one of the real regions the master knows
    long id = last.getRegionId() + 1;
    int rows = 0, deleted = 0;
    try (Table meta = util.getConnection().getTable(TableName.META_TABLE_NAME)) {
      List<org.apache.hadoop.hbase.client.Delete> dels = new ArrayList<>();
      List<Get> gets = new ArrayList<>();
      for (RegionInfo r : real) {
        if (r != last) {
          dels.add(new org.apache.hadoop.hbase.client.Delete(r.getRegionName()));
          gets.add(new Get(r.getRegionName()).addFamily(info));
        }
      }
      // kept cell by cell for the restore, written again then with new timestamps (the
      // deletes below hide every cell older than them)
      for (Result res : meta.get(gets)) {
        Put p = new Put(res.getRow());
        for (Cell c : res.rawCells()) {
          p.addColumn(CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c), CellUtil.cloneValue(c));
        }
        w.deleted.add(p);
      }
      meta.delete(dels);
      deleted = real.size() - 1;
      List<Put> puts = new ArrayList<>();
      byte[] start = org.apache.hadoop.hbase.HConstants.EMPTY_START_ROW;
      for (int i = 0; i < keys.length; i++) {
        RegionInfo ri =
            org.apache.hadoop.hbase.client.RegionInfoBuilder.newBuilder(name)
                .setStartKey(start)
                .setEndKey(keys[i])
                .setRegionId(id)
                .build();
        ServerName sn = live.get(i % live.size());
        Put p = new Put(ri.getRegionName());
        p.addColumn(info, org.apache.hadoop.hbase.HConstants.REGIONINFO_QUALIFIER,
            RegionInfo.toByteArray(ri));
        p.addColumn(info, org.apache.hadoop.hbase.HConstants.SERVER_QUALIFIER,
            Bytes.toBytes(sn.getAddress().toString()));
        p.addColumn(info, org.apache.hadoop.hbase.HConstants.STARTCODE_QUALIFIER,
            Bytes.toBytes(sn.getStartcode()));
        p.addColumn(info, org.apache.hadoop.hbase.HConstants.SEQNUM_QUALIFIER, Bytes.toBytes(2L));
        p.addColumn(info, org.apache.hadoop.hbase.HConstants.SERVERNAME_QUALIFIER,
            Bytes.toBytes(sn.toString()));
        p.addColumn(info, org.apache.hadoop.hbase.HConstants.STATE_QUALIFIER, open);
        // no WAL: the flush at the end makes them durable, and a million rows' WAL writes
        // were most of the time they took
        p.setDurability(org.apache.hadoop.hbase.client.Durability.SKIP_WAL);
        puts.add(p);
        w.made.add(ri.getRegionName());
        if (puts.size() == 5000) {
          putPatiently(meta, puts);
          rows += puts.size();
          puts.clear();
        }
        start = keys[i];
      }
      putPatiently(meta, puts);
      rows += puts.size();
    }
    // into HFiles, where a cluster that has had its regions for a while keeps its meta rows:
    // scans of a memstore this size cost the region server more. The region itself is
    // flushed (HRegion.flush, which waits for a flush under way): Admin.flush's procedure
    // failed with "Unable to complete flush" while the memstore's own flush ran
    util.flush(TableName.META_TABLE_NAME);
    written.put(name, w);
    out.addProperty("rows", rows);
    out.addProperty("deleted", deleted);
    out.addProperty("region_id", id);
  }

  /** Puts into hbase:meta, again after a pause while the region is too busy to take them (a
   * million rows on a loaded machine outran the client's few quick retries). */
  private static void putPatiently(Table meta, List<Put> puts) throws IOException {
    for (int i = 0; ; i++) {
      try {
        meta.put(puts);
        return;
      } catch (IOException e) {
        if (i == 30) {
          throw e;
        }
      }
      try {
        Thread.sleep(2000);
      } catch (InterruptedException e) {
        throw new java.io.InterruptedIOException("interrupted");
      }
    }
  }

  /**
   * The table's region rows in hbase:meta as they were before {@link #metaRows}: the rows it
   * wrote deleted, the real ones it deleted written again (their cells with new timestamps),
   * hbase:meta flushed. The balancer is switched back as it was once no table has rows written
   * any more. The table can then be disabled and dropped as any other.
   */
  private void metaRowsRestore(JsonObject in, JsonObject out) throws IOException {
    TableName name = table(in);
    Written w = written.get(name);
    if (w == null) {
      throw new IllegalArgumentException("no region rows written for " + name);
    }
    try (Table meta = util.getConnection().getTable(TableName.META_TABLE_NAME)) {
      List<org.apache.hadoop.hbase.client.Delete> dels = new ArrayList<>();
      for (byte[] row : w.made) {
        dels.add(new org.apache.hadoop.hbase.client.Delete(row));
      }
      meta.delete(dels);
      meta.put(w.deleted);
    }
    admin().flush(TableName.META_TABLE_NAME);
    written.remove(name);
    if (written.isEmpty() && balancerBefore != null) {
      admin().balancerSwitch(balancerBefore, true);
      balancerBefore = null;
    }
    out.addProperty("rows", w.deleted.size());
    out.addProperty("deleted", w.made.size());
  }

  /** Slot index's server sn has stopped: the master has expired it and reassigned its regions. */
  private void gone(int index, ServerName sn) throws Exception {
    cluster.waitForRegionServerToStop(sn, WAIT_MS);
    slots.set(index, null);
    crashed.add(sn);
    long until = System.currentTimeMillis() + WAIT_MS;
    while (admin().getClusterMetrics().getLiveServerMetrics().containsKey(sn)
        && System.currentTimeMillis() < until) {
      Thread.sleep(50);
    }
    crashProcessed(sn);
    settled();
  }

  /**
   * Waits until the master has run a ServerCrashProcedure for sn to its end. Until then the
   * master's procedure store is the only place that knows sn's regions must move: a master
   * restarted before the procedure was stored found hbase:namespace OPEN on sn in meta, no
   * procedure to move it and no WAL directory naming sn, and held its startup for good
   * ("Master startup cannot progress, in holding-pattern until region onlined", 2.6.1, seen
   * with the master restarted 2.5 s after an expired session).
   */
  private void crashProcessed(ServerName sn) throws Exception {
    long until = System.currentTimeMillis() + WAIT_MS;
    while (System.currentTimeMillis() < until) {
      boolean done = cluster.getMaster().getProcedures().stream().anyMatch(
          p -> p instanceof org.apache.hadoop.hbase.master.procedure.ServerCrashProcedure
              && ((org.apache.hadoop.hbase.master.procedure.ServerCrashProcedure) p)
                  .getServerName().equals(sn)
              && p.isFinished());
      if (done) {
        return;
      }
      Thread.sleep(50);
    }
    throw new IOException("the master ran no crash procedure for " + sn + " in "
        + WAIT_MS / 1000 + " s");
  }

  /** Waits until the master processes no crashed server and no region is in transition. */
  private void settled() throws Exception {
    long until = System.currentTimeMillis() + WAIT_MS;
    // a crashed server's procedure not yet finished: the procedures themselves are asked
    // (ServerManager.areDeadServersInProgress answered false on 2.6.1 while one still ran)
    while (cluster.getMaster().getProcedures().stream().anyMatch(
               p -> !p.isFinished()
                   && p instanceof org.apache.hadoop.hbase.master.procedure.ServerCrashProcedure)
        && System.currentTimeMillis() < until) {
      Thread.sleep(50);
    }
    util.waitUntilNoRegionsInTransition(WAIT_MS);
  }

  public static void main(String[] args) throws Exception {
    PrintStream ready = System.out;
    System.setOut(System.err); // HBase's logging must never reach the ready line's stream
    org.apache.logging.log4j.core.config.Configurator.setRootLevel(
        org.apache.logging.log4j.Level.toLevel(System.getenv().getOrDefault("HBTAB_REAL_LOG", "WARN")));
    int servers = 3;
    long watch = -1;
    java.io.File secureDir = null;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--servers") && i + 1 < args.length) {
        servers = Integer.parseInt(args[++i]);
      } else if (args[i].equals("--watch-pid") && i + 1 < args.length) {
        watch = Long.parseLong(args[++i]);
      } else if (args[i].equals("--secure") && i + 1 < args.length) {
        secureDir = new java.io.File(args[++i]);
      } else {
        System.err.println("usage: RealHBase [--servers N] [--watch-pid PID] [--secure DIR]");
        System.exit(2);
      }
    }
    if (watch > 0) {
      // The process that owns this cluster going away ends it too.
      ProcessHandle owner =
          ProcessHandle.of(watch).orElseThrow(() -> new IllegalArgumentException("no such pid"));
      owner.onExit().thenRun(() -> System.exit(0));
    }
    RealHBase h = new RealHBase(servers);
    if (secureDir != null) {
      h.secure = new Secure(secureDir);
    }
    long t0 = System.nanoTime();
    h.start();
    JsonObject line = new JsonObject();
    line.addProperty("rest", h.restPort);
    line.addProperty("thrift", h.thriftPort);
    line.addProperty("control", h.control.getAddress().getPort());
    line.addProperty("zk", h.util.getZkCluster().getClientPort());
    line.addProperty("pid", ProcessHandle.current().pid());
    line.addProperty("version", VersionInfo.getVersion());
    line.addProperty("start_seconds", (System.nanoTime() - t0) / 1e9);
    if (h.secure != null) {
      h.secure.describe(line);
    }
    ready.println("HBEMU-READY " + line);
    ready.flush();
    if (watch > 0) {
      Thread.currentThread().join(); // until the owner ends, a signal or /control/shutdown
    }
    // Otherwise the parent going away (stdin closed) ends the cluster, so no JVM outlives it.
    while (System.in.read() >= 0) {
      // nothing to read; only end of file matters
    }
    System.exit(0);
  }
}
