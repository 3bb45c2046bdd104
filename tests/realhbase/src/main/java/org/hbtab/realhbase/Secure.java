package org.hbtab.realhbase;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.PrivilegedExceptionAction;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.security.access.AccessControlClient;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authentication.util.KerberosName;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;

/**
 * The secure variant of the cluster ({@code run --secure}): a Kerberos KDC (Hadoop's MiniKdc,
 * Kerby inside) in this JVM, the cluster's settings for Kerberos and the AccessController, the
 * REST gateway's SPNEGO and TLS settings, the Thrift2 server's, and the grants the test users
 * get. The TLS files are made by {@code run} before this JVM starts (openssl): a CA, a server
 * certificate for {@code localhost} signed by it, a PKCS#12 keystore holding both and its
 * password; all in the directory given as {@code --secure DIR}.
 *
 * <p>Principals (realm {@code EXAMPLE.COM}): {@code hbase/localhost} (the cluster and the
 * Thrift2 server's HBase identity; the HBase superuser, short name {@code hbase}), {@code
 * HTTP/localhost} (the SPNEGO acceptor of the gateway and of Thrift2), {@code rest} (the
 * gateway's HBase identity, which acts for each SPNEGO user), and the two users the tests log in
 * as: {@code admin} (every permission, global) and {@code reader} (READ, global: every user
 * table and hbase:meta, nothing else).
 */
final class Secure {
  static final String HOST = "localhost";

  private final File dir;
  private MiniKdc kdc;
  private String realm;
  private File serviceKeytab;
  private File adminKeytab;
  private File readerKeytab;
  private File clientKrb5;
  private final String storePassword;

  Secure(File dir) throws IOException {
    this.dir = dir;
    storePassword =
        new String(Files.readAllBytes(new File(dir, "keystore.pass").toPath()),
                StandardCharsets.US_ASCII)
            .trim();
  }

  String principal(String name) {
    return name + "@" + realm;
  }

  /** The KDC, its principals and keytabs, and a krb5.conf for MIT clients (kinit, libcurl). */
  void startKdc() throws Exception {
    Properties p = MiniKdc.createConf();
    p.setProperty(MiniKdc.KDC_BIND_ADDRESS, HOST);
    p.setProperty(MiniKdc.DEBUG, "false");
    File work = new File(dir, "kdc");
    work.mkdirs();
    kdc = new MiniKdc(p, work);
    kdc.start();
    realm = kdc.getRealm();
    serviceKeytab = new File(dir, "service.keytab");
    adminKeytab = new File(dir, "admin.keytab");
    readerKeytab = new File(dir, "reader.keytab");
    kdc.createPrincipal(serviceKeytab, "hbase/" + HOST, "HTTP/" + HOST, "rest");
    kdc.createPrincipal(adminKeytab, "admin");
    kdc.createPrincipal(readerKeytab, "reader");
    // MIT's libraries (kinit, libcurl's GSS-API): the KDC over TCP on the loopback address,
    // host names taken as written (no reverse lookup: HTTP/localhost is the service).
    clientKrb5 = new File(dir, "krb5.conf");
    String text =
        "[libdefaults]\n"
            + "  default_realm = " + realm + "\n"
            + "  udp_preference_limit = 1\n"
            + "  dns_lookup_kdc = false\n"
            + "  dns_lookup_realm = false\n"
            + "  rdns = false\n"
            + "  dns_canonicalize_hostname = false\n"
            + "[realms]\n"
            + "  " + realm + " = {\n"
            + "    kdc = 127.0.0.1:" + kdc.getPort() + "\n"
            + "  }\n"
            + "[domain_realm]\n"
            + "  localhost = " + realm + "\n";
    Files.write(clientKrb5.toPath(), text.getBytes(StandardCharsets.US_ASCII));
  }

  /** Kerberos and the AccessController in the cluster's configuration; the JVM logs in as hbase. */
  void configure(Configuration conf) throws IOException {
    String hbase = principal("hbase/" + HOST);
    conf.set("hadoop.security.authentication", "kerberos");
    conf.set("hbase.security.authentication", "kerberos");
    conf.setBoolean("hbase.security.authorization", true);
    conf.set("hbase.regionserver.kerberos.principal", hbase);
    conf.set("hbase.regionserver.keytab.file", serviceKeytab.getPath());
    conf.set("hbase.master.kerberos.principal", hbase);
    conf.set("hbase.master.keytab.file", serviceKeytab.getPath());
    conf.set("hbase.unsafe.regionserver.hostname", HOST);
    conf.set("hbase.master.hostname", HOST);
    String ac = "org.apache.hadoop.hbase.security.access.AccessController";
    conf.set("hbase.coprocessor.region.classes",
        "org.apache.hadoop.hbase.security.token.TokenProvider," + ac);
    conf.set("hbase.coprocessor.master.classes", ac);
    conf.set("hbase.coprocessor.regionserver.classes", ac);
    conf.setBoolean("hbase.security.exec.permission.checks", true);
    conf.set("hbase.superuser", "hbase");
    // rest (the gateway) and hbase (Thrift2) act for the users that authenticated to them
    for (String u : new String[] {"rest", "hbase"}) {
      conf.set("hadoop.proxyuser." + u + ".hosts", "*");
      conf.set("hadoop.proxyuser." + u + ".groups", "*");
      conf.set("hadoop.proxyuser." + u + ".users", "*");
    }
    UserGroupInformation.setConfiguration(conf);
    KerberosName.setRules("DEFAULT");
    UserGroupInformation.loginUserFromKeytab(hbase, serviceKeytab.getPath());
  }

  /** The grants, made as the superuser once hbase:acl is there. */
  void grant(Connection conn) throws Throwable {
    AccessControlClient.grant(conn, "admin", Permission.Action.READ, Permission.Action.WRITE,
        Permission.Action.EXEC, Permission.Action.CREATE, Permission.Action.ADMIN);
    AccessControlClient.grant(conn, "reader", Permission.Action.READ);
  }

  static final TableName ACL = TableName.valueOf("hbase:acl");

  /** SPNEGO and TLS on the REST gateway; start it with {@link #asRest}. */
  void rest(Configuration c) {
    c.set("hbase.rest.authentication.type", "kerberos");
    c.set("hbase.rest.kerberos.principal", principal("rest"));
    c.set("hbase.rest.keytab.file", serviceKeytab.getPath());
    c.set("hbase.rest.authentication.kerberos.principal", principal("HTTP/" + HOST));
    c.set("hbase.rest.authentication.kerberos.keytab", serviceKeytab.getPath());
    c.setBoolean("hbase.rest.ssl.enabled", true);
    c.set("hbase.rest.ssl.keystore.store", new File(dir, "server.p12").getPath());
    c.set("hbase.rest.ssl.keystore.password", storePassword);
    c.set("hbase.rest.ssl.keystore.keypassword", storePassword);
    c.set("hbase.rest.ssl.keystore.type", "pkcs12");
  }

  /** The gateway's start as the rest principal (its login is skipped: RESTServlet takes the
   *  current user as the identity it acts for its users from). */
  <T> T asRest(PrivilegedExceptionAction<T> action) throws Exception {
    UserGroupInformation ugi =
        UserGroupInformation.loginUserFromKeytabAndReturnUGI(
            principal("rest"), serviceKeytab.getPath());
    return ugi.doAs(action);
  }

  /** SPNEGO and TLS on the Thrift2 server (HTTP mode). */
  void thrift(Configuration c) {
    c.set("hbase.thrift.kerberos.principal", principal("hbase/" + HOST));
    c.set("hbase.thrift.keytab.file", serviceKeytab.getPath());
    c.set("hbase.thrift.spnego.principal", principal("HTTP/" + HOST));
    c.set("hbase.thrift.spnego.keytab.file", serviceKeytab.getPath());
    c.setBoolean("hbase.thrift.ssl.enabled", true);
    c.set("hbase.thrift.ssl.keystore.store", new File(dir, "server.p12").getPath());
    c.set("hbase.thrift.ssl.keystore.password", storePassword);
    c.set("hbase.thrift.ssl.keystore.keypassword", storePassword);
    c.set("hbase.thrift.ssl.keystore.type", "pkcs12");
  }

  /** The ready line's additions. */
  void describe(JsonObject line) {
    line.addProperty("secure", true);
    line.addProperty("host", HOST);
    line.addProperty("realm", realm);
    line.addProperty("krb5_conf", clientKrb5.getPath());
    line.addProperty("ca", new File(dir, "ca.pem").getPath());
    JsonObject keytabs = new JsonObject();
    keytabs.addProperty("admin", adminKeytab.getPath());
    keytabs.addProperty("reader", readerKeytab.getPath());
    line.add("keytabs", keytabs);
    JsonObject principals = new JsonObject();
    principals.addProperty("admin", principal("admin"));
    principals.addProperty("reader", principal("reader"));
    principals.addProperty("hbase", principal("hbase/" + HOST));
    line.add("principals", principals);
  }
}
