import { Anchor, Box, Burger, Container, Divider, Drawer, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, NavLink } from 'react-router';
import { useSession } from '../features/auth/use-session.ts';
import { AnchorLink, ButtonLink } from '../shared/router-link.tsx';
import classes from './layout.module.css';
import { adminNavigationFor, navigationFor, type NavItem } from './navigation.ts';

const MOBILE_NAV_ID = 'mobile-navigation';

function MainLinks({ items, onNavigate }: { items: NavItem[]; onNavigate?: () => void }) {
  return items.map((item) => (
    <Anchor
      key={item.to}
      component={NavLink}
      to={item.to}
      end={item.to === '/'}
      className={classes.navLink}
      onClick={onNavigate}
    >
      {item.label}
    </Anchor>
  ));
}

function AccountLinks({ onNavigate }: { onNavigate?: () => void }) {
  const session = useSession();
  if (session.token === null) {
    return (
      <>
        <ButtonLink to="/registration" size="sm" onClick={onNavigate}>
          Sign up for Rates/Try Vindex
        </ButtonLink>
        <ButtonLink to="/login" size="sm" variant="outline" onClick={onNavigate}>
          Sign In
        </ButtonLink>
      </>
    );
  }
  return (
    <>
      <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
        Hello, {session.userName ?? session.email}
      </Text>
      <AnchorLink to="/profile" size="sm" onClick={onNavigate}>
        Profile
      </AnchorLink>
      <AnchorLink to="/logout" size="sm" onClick={onNavigate}>
        Sign out
      </AnchorLink>
    </>
  );
}

/** The site header: the signed-in or signed-out variant of search-and-accounts §2. */
export function AppHeader() {
  const session = useSession();
  const [menuOpened, menu] = useDisclosure(false);
  const items = navigationFor(session.token !== null);
  const adminItems = adminNavigationFor(session.role);

  return (
    <Box component="header" className={classes.header}>
      <Container size="xl" py="sm">
        <Group justify="space-between" wrap="nowrap">
          <Anchor component={Link} to="/" className={classes.brand}>
            RateLens
          </Anchor>
          <Group gap="md" visibleFrom="md" wrap="nowrap">
            <AccountLinks />
          </Group>
          <Burger
            hiddenFrom="md"
            opened={menuOpened}
            onClick={menu.toggle}
            aria-label={menuOpened ? 'Close menu' : 'Open menu'}
            aria-expanded={menuOpened}
            aria-controls={MOBILE_NAV_ID}
          />
        </Group>
        <Box component="nav" aria-label="Main" visibleFrom="md" mt="xs">
          <Group gap="lg">
            <MainLinks items={items} />
          </Group>
        </Box>
        {adminItems.length > 0 && (
          <Box component="nav" aria-label="Administration" visibleFrom="md" mt={4}>
            <Group gap="lg">
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" aria-hidden="true">
                Admin
              </Text>
              <MainLinks items={adminItems} />
            </Group>
          </Box>
        )}
      </Container>

      <Drawer
        id={MOBILE_NAV_ID}
        opened={menuOpened}
        onClose={menu.close}
        title="Menu"
        size="xs"
        hiddenFrom="md"
      >
        <Stack gap="md">
          <Box component="nav" aria-label="Main">
            <Stack gap="sm">
              <MainLinks items={items} onNavigate={menu.close} />
            </Stack>
          </Box>
          {adminItems.length > 0 && (
            <>
              <Divider />
              <Box component="nav" aria-label="Administration">
                <Stack gap="sm">
                  <Text size="xs" fw={700} c="dimmed" tt="uppercase" aria-hidden="true">
                    Admin
                  </Text>
                  <MainLinks items={adminItems} onNavigate={menu.close} />
                </Stack>
              </Box>
            </>
          )}
          <Divider />
          <Stack gap="sm" align="flex-start">
            <AccountLinks onNavigate={menu.close} />
          </Stack>
        </Stack>
      </Drawer>
    </Box>
  );
}
