/**
 * Something to look at in the demo tenant (SEED_DEMO_CONTENT, which `npm start` turns on): Acme Health
 * gets the application it migrates from, a master dictionary of it loaded through the real upload
 * path (parse → review → apply), and a migration project with that dictionary assigned, owned by
 * the demo analyst; and an onboarding configuration serving two of its schemes, its default. Each
 * only while the company has none of its kind yet, so a restart changes nothing.
 */
import type { Kysely } from "kysely";
import { SERVICE_WORKSPACES } from "../../../contracts/workspaces.server.ts";
import { DEMO_COMPANIES, demoAdminDataSources, demoUsers } from "../../../scripts/demo-data.ts";
import type { Database } from "./db/schema.ts";
import { parseDictionaryFile } from "./dictionary-bulk/parse-file.ts";
import { applyReview, createReview } from "./dictionary-bulk/reviews.ts";
import { recomputeSetupStatus } from "./project-setup.ts";
import { createApplication, hasApplications } from "./repositories/applications.ts";
import { createConfiguration } from "./repositories/configurations.ts";
import { copyTables, createDictionary, dictionaryStats, findProjectDictionaryRef } from "./repositories/dictionaries.ts";
import { createProject, setSourceDictionary } from "./repositories/projects.ts";

const DICTIONARY_CSV = `table,column,type,length,precision,scale,nullable,key,description
Customers,CustomerId,uniqueidentifier,,,,no,yes,Primary key
Customers,Name,nvarchar,200,,,no,no,Full name
Customers,Email,nvarchar,320,,,yes,no,
Customers,CreditLimit,decimal,,18,2,yes,no,Credit limit in the customer's currency
Customers,CreatedAt,datetime,,,,no,no,When the customer was registered
Orders,OrderId,bigint,,,,no,yes,Order number
Orders,CustomerId,uniqueidentifier,,,,no,no,The customer who ordered
Orders,OrderDate,date,,,,no,no,
Orders,Total,decimal,,18,2,no,no,Order total including tax
Products,ProductId,int,,,,no,yes,
Products,Name,nvarchar,120,,,no,no,
Products,Weight,float,,,,yes,no,Kilograms
Products,AvailableFrom,time,,,,yes,no,Daily availability start
`;

const acme = DEMO_COMPANIES[1];
const demoAnalyst = () => demoUsers().find((u) => u.email === "analyst@demo.test")!;

/** The demo configuration: its name and the two Acme Health schemes it serves (ids shared with the client portal's seed). */
export const DEMO_CONFIGURATION = {
  name: "Monthly payroll deliveries",
  description: "The payroll file Acme Health sends every month, for its pension schemes.",
  schemes: demoAdminDataSources(acme.id)
    .filter((s) => s.name === "Defined Benefit Scheme" || s.name === "Defined Contribution Scheme")
    .map((s) => ({ id: s.id, name: s.name })),
} as const;

/** Seeds what is missing; true when it seeded anything. */
export async function seedDemoContent(db: Kysely<Database>, now = new Date()): Promise<boolean> {
  const migration = await seedMigrationDemo(db, now);
  const onboarding = await seedOnboardingDemo(db, now);
  return migration || onboarding;
}

async function seedMigrationDemo(db: Kysely<Database>, now: Date): Promise<boolean> {
  const analyst = demoAnalyst();
  if (await hasApplications(db, acme.id)) return false;

  const application = await createApplication(
    db,
    { companyId: acme.id, name: "Legacy ERP", description: "The on-premises ERP Acme Health is leaving." },
    now,
  );
  const dictionaryId = await createDictionary(
    db,
    {
      companyId: acme.id,
      applicationId: application.id,
      projectId: null,
      name: "ERP core tables",
      description: "Customers, orders and products of the legacy ERP.",
      userId: analyst.id,
    },
    now,
  );
  const parsed = await parseDictionaryFile(new TextEncoder().encode(DICTIONARY_CSV), "erp-core-tables.csv");
  if (parsed.errors.length) throw new Error(`the demo dictionary has errors: ${parsed.errors[0]?.message}`);
  const review = await createReview(db, dictionaryId, parsed, { fileName: "erp-core-tables.csv", userId: analyst.id, now });
  await applyReview(db, dictionaryId, review.id, analyst.id, now);

  const projectId = await createProject(
    db,
    {
      companyId: acme.id,
      applicationId: application.id,
      name: "ERP customer migration",
      description: "Move customers, orders and products out of the legacy ERP.",
      sourceType: "FlatFile",
      userId: analyst.id,
    },
    now,
  );
  const own = (await findProjectDictionaryRef(db, projectId))!;
  await copyTables(db, dictionaryId, own.id, { expectedVersion: own.version, userId: analyst.id, now });
  // Demo content, not a user's save: nextVersion's rule.
  await setSourceDictionary(db, projectId, dictionaryId, null, now);
  const stats = await dictionaryStats(db, own.id);
  if (stats) await recomputeSetupStatus(db, "migration", projectId, stats, null, now);
  return true;
}

/** The configuration, on the Legacy ERP application, once Acme Health has that and no configuration yet. */
async function seedOnboardingDemo(db: Kysely<Database>, now: Date): Promise<boolean> {
  const hasConfiguration = await db
    .selectFrom("projects")
    .select("id")
    .where("company_id", "=", acme.id)
    .where("product_type", "=", SERVICE_WORKSPACES.onboarding.productType)
    .executeTakeFirst();
  if (hasConfiguration) return false;
  const application = await db
    .selectFrom("applications")
    .select("id")
    .where("company_id", "=", acme.id)
    .where("name_key", "=", "legacy erp")
    .executeTakeFirst();
  if (!application) return false;
  // The schemes' ids and names come from the seed both services share: no client portal needed here.
  await createConfiguration(
    db,
    {
      companyId: acme.id,
      applicationId: application.id,
      name: DEMO_CONFIGURATION.name,
      description: DEMO_CONFIGURATION.description,
      schemes: DEMO_CONFIGURATION.schemes,
      isDefault: true,
      userId: demoAnalyst().id,
    },
    now,
  );
  return true;
}
