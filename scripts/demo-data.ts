/**
 * The demo tenant, seeded by `npm start` (never by a production start). Both reference services
 * seed from this one list so that company ids agree between them. Password for every user: `demo`.
 */
import { DEFAULT_TRANSLATION_ANALYST_ROLE, ROLES } from "../contracts/roles.ts";

export const DEMO_PASSWORD = "demo";

/** Inserted in this order on purpose: the company list must sort by name, not by insertion. */
export const DEMO_COMPANIES = [
  { id: "6f1c2a4e-0c1b-4d7e-9a51-3c2f8e1b7a01", name: "Cedar Retail" },
  { id: "2b7d9e13-5a8c-4f60-b2d4-7e91c3a5f802", name: "Acme Health" },
  { id: "9c4e6a28-1f3d-4b75-8e06-d5a7b2c9e403", name: "Birch Logistics" },
] as const;

const [cedar, acme, birch] = DEMO_COMPANIES;

export type DemoUser = {
  id: string;
  email: string;
  name: string;
  /** The role attribute as the identity carries it (semicolon-separated). */
  roles: string;
  permissions: { companyId: string; productRoleName: string }[];
};

export function demoUsers(translationAnalystRole: string = DEFAULT_TRANSLATION_ANALYST_ROLE): DemoUser[] {
  return [
    { id: "a0000000-0000-4000-8000-000000000001", email: "super@demo.test", name: "Sam Super", roles: ROLES.SuperAdmin, permissions: [] },
    { id: "a0000000-0000-4000-8000-000000000002", email: "support@demo.test", name: "Sue Support", roles: ROLES.Support, permissions: [] },
    {
      id: "a0000000-0000-4000-8000-000000000003",
      email: "analyst@demo.test",
      name: "Ann Analyst",
      roles: ROLES.Analyst,
      permissions: [
        { companyId: acme.id, productRoleName: ROLES.Analyst },
        { companyId: birch.id, productRoleName: ROLES.Analyst },
      ],
    },
    {
      id: "a0000000-0000-4000-8000-000000000004",
      email: "clientadmin@demo.test",
      name: "Carl Client",
      roles: ROLES.ClientAdmin,
      permissions: [
        { companyId: birch.id, productRoleName: ROLES.ClientAdmin },
        { companyId: cedar.id, productRoleName: ROLES.Viewer },
      ],
    },
    {
      id: "a0000000-0000-4000-8000-000000000005",
      email: "viewer@demo.test",
      name: "Vera Viewer",
      roles: ROLES.Viewer,
      permissions: [{ companyId: acme.id, productRoleName: ROLES.Viewer }],
    },
    {
      id: "a0000000-0000-4000-8000-000000000006",
      email: "manager@demo.test",
      name: "Max Manager",
      roles: ROLES.Manager,
      permissions: [{ companyId: cedar.id, productRoleName: ROLES.Manager }],
    },
    {
      id: "a0000000-0000-4000-8000-000000000007",
      email: "translator@demo.test",
      name: "Tia Translator",
      roles: translationAnalystRole,
      permissions: [{ companyId: acme.id, productRoleName: translationAnalystRole }],
    },
  ];
}

export type DemoAdminDataSource = { id: string; companyId: string; name: string; description: string | null };

/**
 * Each demo company's admin data sources: its schemes, whose deliveries onboarding configurations
 * take in. The client portal seeds them; the data API's demo content stores the ids and names of
 * the schemes its demo configuration serves, so it never needs the client portal to seed.
 */
export const DEMO_ADMIN_DATA_SOURCES = [
  { id: "d5000000-0000-4000-8000-000000000101", companyId: cedar.id, name: "Defined Contribution Scheme", description: "Cedar Retail staff pension, open to all employees." },
  { id: "d5000000-0000-4000-8000-000000000102", companyId: cedar.id, name: "Group Life Assurance Scheme", description: null },
  { id: "d5000000-0000-4000-8000-000000000201", companyId: acme.id, name: "Defined Benefit Scheme", description: "Final salary section, closed to new members." },
  { id: "d5000000-0000-4000-8000-000000000202", companyId: acme.id, name: "Defined Contribution Scheme", description: "The default workplace pension since 2016." },
  { id: "d5000000-0000-4000-8000-000000000203", companyId: acme.id, name: "Healthcare Trust Scheme", description: "Medical cover for employees and their families." },
  { id: "d5000000-0000-4000-8000-000000000301", companyId: birch.id, name: "Defined Benefit Scheme", description: "Career average section for drivers and depot staff." },
  { id: "d5000000-0000-4000-8000-000000000302", companyId: birch.id, name: "Defined Contribution Scheme", description: null },
] as const satisfies readonly DemoAdminDataSource[];

/** The schemes of a demo company, in the seeded order. */
export function demoAdminDataSources(companyId: string): DemoAdminDataSource[] {
  return DEMO_ADMIN_DATA_SOURCES.filter((s) => s.companyId === companyId);
}
