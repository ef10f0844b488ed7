import { describe, expect, it } from "vitest";
import { addressKind, hostRefusal, resolvedRefusal } from "./addresses.ts";

describe("which addresses a webhook may reach", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.10", "private"],
    ["169.254.169.254", "link-local"],
    ["169.254.0.1", "link-local"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["100.64.0.1", "shared"],
    ["100.127.255.255", "shared"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["255.255.255.255", "reserved"],
    ["240.0.0.1", "reserved"],
    ["192.0.2.1", "reserved"],
  ])("IPv4 %s is %s", (ip, kind) => {
    expect(addressKind(ip)).toBe(kind);
  });

  it.each([
    ["::1", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["::", "unspecified"],
    ["fc00::1", "private"],
    ["fd12:3456:789a::1", "private"],
    ["fec0::1", "private"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf::1", "link-local"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "reserved"],
  ])("IPv6 %s is %s", (ip, kind) => {
    expect(addressKind(ip)).toBe(kind);
  });

  it.each([
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::FFFF:169.254.169.254", "link-local"],
    ["::ffff:a9fe:a9fe", "link-local"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:0:192.168.0.1", "private"],
    ["::127.0.0.1", "loopback"],
    ["64:ff9b::10.0.0.1", "private"],
    ["64:ff9b::a9fe:a9fe", "link-local"],
    ["2002:c0a8:0101::1", "private"],
    ["2002:7f00:1::", "loopback"],
  ])("IPv4 written as IPv6, %s, is what the IPv4 address is: %s", (ip, kind) => {
    expect(addressKind(ip)).toBe(kind);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "100.63.255.255",
    "100.128.0.0",
    "172.15.255.255",
    "172.32.0.0",
    "192.169.0.1",
    "169.253.255.255",
    "223.255.255.255",
    "93.184.216.34",
  ])("IPv4 %s is public", (ip) => {
    expect(addressKind(ip)).toBeNull();
  });

  it.each(["2606:4700:4700::1111", "2001:4860:4860::8888", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1", "fbff::1", "fe7f::1"])(
    "IPv6 %s is public",
    (ip) => {
      expect(addressKind(ip)).toBeNull();
    },
  );

  it("refuses a URL naming a non-public address or the local machine, saying why; a public address or any other name passes", () => {
    const refusal = (url: string) => hostRefusal(new URL(url));
    expect(refusal("http://127.0.0.1:4502/api/v1/companies/all")).toBe("A webhook must reach a public address: 127.0.0.1 is a loopback address.");
    expect(refusal("http://169.254.169.254/latest/meta-data")).toBe("A webhook must reach a public address: 169.254.169.254 is a link-local address.");
    expect(refusal("http://[::ffff:127.0.0.1]/")).toBe("A webhook must reach a public address: ::ffff:7f00:1 is a loopback address.");
    expect(refusal("http://[fd00::1]:8080/")).toBe("A webhook must reach a public address: fd00::1 is a private address.");
    expect(refusal("http://100.64.1.1/")).toBe("A webhook must reach a public address: 100.64.1.1 is a carrier-grade NAT (100.64.0.0/10) address.");
    expect(refusal("http://0.0.0.0:3002/")).toBe("A webhook must reach a public address: 0.0.0.0 is an unspecified address.");
    // The URL parser's other spellings of 127.0.0.1 are judged as what they reach.
    expect(refusal("http://2130706433/")).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(refusal("http://0x7f.1/")).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(refusal("http://localhost:3002/")).toBe("A webhook must reach a public address: localhost names the local machine.");
    expect(refusal("http://LOCALHOST./")).toMatch(/names the local machine/);
    expect(refusal("http://api.localhost/")).toBe("A webhook must reach a public address: api.localhost names the local machine.");
    expect(refusal("https://hooks.example.com/dt")).toBeNull();
    expect(refusal("https://localhost.example.com/dt")).toBeNull();
    expect(refusal("https://8.8.8.8/dt")).toBeNull();
  });

  it("refuses a name that resolves to a non-public address", () => {
    expect(resolvedRefusal("hooks.example.com", "10.1.2.3")).toBe(
      "A webhook must reach a public address: hooks.example.com resolves to 10.1.2.3, a private address.",
    );
    expect(resolvedRefusal("hooks.example.com", "::ffff:169.254.169.254")).toMatch(/a link-local address\.$/);
    expect(resolvedRefusal("hooks.example.com", "93.184.216.34")).toBeNull();
  });
});
