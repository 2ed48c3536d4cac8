package io.sediment.om.auth;

import java.security.cert.X509Certificate;
import java.util.List;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.security.auth.x500.X500Principal;

/**
 * The user name of a verified client certificate (mutual TLS): the subject's common name (CN);
 * with several CNs, the most specific one (the first in the RFC 2253 form); without a CN, the
 * whole subject in RFC 2253 form (for example {@code O=Example,C=DE}).
 */
public final class CertificatePrincipal {

  private CertificatePrincipal() {
  }

  /** The user name {@code cert} maps to. */
  public static String nameOf(X509Certificate cert) {
    return nameOf(cert.getSubjectX500Principal());
  }

  /** The user name a certificate with subject {@code subject} maps to. */
  public static String nameOf(X500Principal subject) {
    String rfc2253 = subject.getName(X500Principal.RFC2253);
    try {
      // LdapName lists the RDNs from the least specific (the end of the RFC 2253 form).
      List<Rdn> rdns = new LdapName(rfc2253).getRdns();
      for (int i = rdns.size() - 1; i >= 0; i--) {
        Rdn rdn = rdns.get(i);
        if (rdn.getType().equalsIgnoreCase("CN") && rdn.getValue() instanceof String cn
            && !cn.isEmpty()) {
          return cn;
        }
      }
    } catch (InvalidNameException e) {
      // The JDK's own RFC 2253 form always parses; if not, the whole subject names the user.
    }
    return rfc2253.isEmpty() ? "<empty subject>" : rfc2253;
  }
}
